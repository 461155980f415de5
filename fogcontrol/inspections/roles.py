"""Who may do what in inspections (D1, D8). Scope (which inspections) is ``querysets.py``."""

from fogcontrol.core.permissions import require_role
from fogcontrol.core.roles import Role

# D8: inspections are done by the FOG Manager or an authorised enforcement officer (inspector).
INSPECTORS = frozenset({Role.FOG_MANAGER, Role.INSPECTOR})
# The FOG Manager plans the program: schedules and assigns visits to inspectors.
SCHEDULERS = frozenset({Role.FOG_MANAGER, Role.INSPECTOR})

# D6: the FOG Manager and inspectors record the Specialty FOG Compliance Charges they incur; only
# the FOG Manager cancels one (with the reason), as only the FOG Manager waives a fee (B3).
CHARGE_RECORDERS = frozenset({Role.FOG_MANAGER, Role.INSPECTOR})
CHARGE_CANCELLERS = frozenset({Role.FOG_MANAGER})

# Who may take each step at all, by step (the API viewset's action names; pages name them too). A
# role outside them is refused (403) before its input is read (docs/architecture.md).
STEP_ROLES = {
    "create": (SCHEDULERS, "Only the FOG Manager and inspectors schedule inspections."),
    "partial_update": (INSPECTORS, "Only the FOG Manager and inspectors fill in inspections."),
    "complete": (INSPECTORS, "Only the FOG Manager and inspectors complete inspections."),
    "photos": (INSPECTORS, "Only the FOG Manager and inspectors add photos."),
    "assign": (SCHEDULERS, "Only the FOG Manager and inspectors assign inspections."),
    "cancel": (SCHEDULERS, "Only the FOG Manager and inspectors cancel inspections."),
    "follow_up": (SCHEDULERS, "Only the FOG Manager and inspectors schedule inspections."),
    "charge_record": (CHARGE_RECORDERS, "Only the FOG Manager and inspectors record compliance charges."),
    "charge_cancel": (CHARGE_CANCELLERS, "Only the FOG Manager cancels a compliance charge."),
}


def require_step(user, step: str) -> None:
    """Refuse (403) a role that may never take `step`, before its input is read."""
    roles, refusal = STEP_ROLES[step]
    require_role(user, roles, refusal)
