"""The rules calculator (public law: every signed-in user) and the Town's settings (staff) in the
main menu, and the settings' section menu (`{% menu "program" %}`)."""

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.program.selectors import program_settings_visible

register(
    group="program",
    label="Program",
    weight=40,
    items=[
        MenuItem("Rules calculator", "calculator:home"),
        MenuItem("Town settings", "program:home", visible=program_settings_visible),
    ],
)

register(
    menu="program",
    group="program",
    label="Program settings",
    items=[
        MenuItem("Overview", "program:home", visible=program_settings_visible),
        MenuItem("Town profile", "program:profile", visible=program_settings_visible),
        MenuItem("Holiday calendar", "program:holidays", visible=program_settings_visible),
        MenuItem("Ruleset versions", "program:rulesets", visible=program_settings_visible),
    ],
)
