"""Who may see and change the program's settings (docs/architecture.md, "Who may see what").

Town staff read the calendar and the ruleset versions; only the FOG Manager changes them. (The
rules themselves are public law: the calculator and the rules API answer every signed-in user from
the ruleset in force, read by the program, not through these querysets.)
"""

from __future__ import annotations

from fogcontrol.core.roles import Role
from fogcontrol.core.scoping import NOTHING, VIEW, ScopedQuerySet


def _staff_read_manager_change(user, action):
    if action == VIEW:
        return None if user.is_program_staff else NOTHING
    return None if user.has_role(Role.FOG_MANAGER) else NOTHING


class HolidayQuerySet(ScopedQuerySet):
    def scope(self, user, action):
        return _staff_read_manager_change(user, action)


class RulesetVersionQuerySet(ScopedQuerySet):
    def scope(self, user, action):
        return _staff_read_manager_change(user, action)
