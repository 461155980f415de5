"""The "Background work" page in the program settings' section menu (Town staff)."""

from django.utils.translation import gettext_lazy as _

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.program import navigation as program_navigation  # noqa: F401 (its items come first)
from fogcontrol.program.selectors import program_settings_visible

register(
    menu="program",
    group="program",
    label=_("Program settings"),
    items=[MenuItem(_("Background work"), "worker:status", visible=program_settings_visible)],
)
