"""The rules calculator (public law: every signed-in user) and the Town's settings (staff) in the
main menu, and the settings' section menu (`{% menu "program" %}`)."""

from django.utils.translation import gettext_lazy as _

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.program.selectors import program_settings_visible

register(
    group="program",
    label=_("Program"),
    weight=40,
    items=[
        MenuItem(_("Rules calculator"), "calculator:home"),
        MenuItem(_("Town settings"), "program:home", visible=program_settings_visible),
    ],
)

register(
    menu="program",
    group="program",
    label=_("Program settings"),
    items=[
        MenuItem(_("Overview"), "program:home", visible=program_settings_visible),
        MenuItem(_("Town profile"), "program:profile", visible=program_settings_visible),
        MenuItem(_("Holiday calendar"), "program:holidays", visible=program_settings_visible),
        MenuItem(_("Ruleset versions"), "program:rulesets", visible=program_settings_visible),
    ],
)
