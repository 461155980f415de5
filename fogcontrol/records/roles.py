"""Who may do what with an FSE's own records (C2, C4, C5, D7, E9, F2, F3, F6). Scope (which
records) is ``querysets.py``; these are the roles the services check."""

from fogcontrol.core.roles import Role

# C4 training and report submissions: the FSE keeps its records; staff may enter them on a visit.
RECORD_KEEPERS = frozenset({Role.FSE, Role.FOG_MANAGER, Role.INSPECTOR})
# C2 waste-oil pickups: also the licensed hauler or approved recycler, in the hauler portal.
PICKUP_RECORDERS = frozenset({Role.FSE, Role.HAULER, Role.FOG_MANAGER, Role.INSPECTOR})
# C5, D7, E9, F2, F3, F6: the FOG Manager requires reports, plans and data.
REQUIREMENT_SETTERS = frozenset({Role.FOG_MANAGER})
# Staff review every submission: accepted, or needs correction with a reason.
REVIEWERS = frozenset({Role.FOG_MANAGER, Role.INSPECTOR})
