"""Who may do what with an FSE's own records (C2, C4, C5, D7, E9, F2, F3, F6). Scope (which
records) is ``querysets.py``; these are the roles the services check."""

from fogcontrol.core.permissions import require_role
from fogcontrol.core.roles import STAFF_ROLES, Role

# C4 training and report submissions: the FSE keeps its records; staff may enter them on a visit.
RECORD_KEEPERS = frozenset({Role.FSE, Role.FOG_MANAGER, Role.INSPECTOR})
# C2 waste-oil pickups: also the licensed hauler or approved recycler, in the hauler portal.
PICKUP_RECORDERS = frozenset({Role.FSE, Role.HAULER, Role.FOG_MANAGER, Role.INSPECTOR})
# C5, D7, E9, F2, F3, F6: the FOG Manager requires reports, plans and data.
REQUIREMENT_SETTERS = frozenset({Role.FOG_MANAGER})
# Staff review every submission: accepted, or needs correction with a reason.
REVIEWERS = frozenset({Role.FOG_MANAGER, Role.INSPECTOR})

# Who may take each step at all, by step (the API viewsets' action names; the pages name them too).
# A role outside them is refused (403) before its input is read (docs/architecture.md); the services
# keep their own check and the finer ones (the FSE's own establishment, the record's state).
TRAINING_STEPS = {
    "create": (RECORD_KEEPERS, "Only the FSE and Town staff record training."),
    "sign": (RECORD_KEEPERS, "Only the FSE and Town staff record training."),
}
PICKUP_STEPS = {
    "create": (PICKUP_RECORDERS, "Only the FSE, its hauler and Town staff record waste-oil pickups."),
}
REQUIREMENT_STEPS = {
    "create": (REQUIREMENT_SETTERS, "Only the FOG Manager requires reports and plans."),
    "end": (REQUIREMENT_SETTERS, "Only the FOG Manager lifts a requirement."),
}
SUBMISSION_STEPS = {
    "create": (RECORD_KEEPERS, "Only the FSE and Town staff submit records."),
    "correct": (RECORD_KEEPERS, "Only the FSE and Town staff submit corrections."),
    "review": (REVIEWERS, "Only the FOG Manager and inspectors review records."),
}


def require_step(user, steps, step: str) -> None:
    """Refuse (403) a role that may never take `step`, before its input is read."""
    roles, refusal = steps[step]
    require_role(user, roles, refusal)


# The BMP materials (C4 training sheet, C7 signs): the FSE and the property owner print them for
# their kitchens, staff for an inspection. A hauler is told they do not exist (404).
BMP_READERS = STAFF_ROLES | frozenset({Role.FSE, Role.PROPERTY_OWNER})
