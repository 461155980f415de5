"""Who may do what in inspections (D1, D8). Scope (which inspections) is ``querysets.py``."""

from fogcontrol.core.roles import Role

# D8: inspections are done by the FOG Manager or an authorised enforcement officer (inspector).
INSPECTORS = frozenset({Role.FOG_MANAGER, Role.INSPECTOR})
# The FOG Manager plans the program: schedules and assigns visits to inspectors.
SCHEDULERS = frozenset({Role.FOG_MANAGER, Role.INSPECTOR})
