"""The "Background work" page in the program settings' section menu (Town staff)."""

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.program import navigation as program_navigation  # noqa: F401 (its items come first)
from fogcontrol.program.selectors import program_settings_visible

register(
    menu="program",
    group="program",
    label="Program settings",
    items=[MenuItem("Background work", "worker:status", visible=program_settings_visible)],
)
