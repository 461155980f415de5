"""Who may do what in sampling (D5, D7). Scope (which records) is ``querysets.py``."""

from fogcontrol.core.permissions import require_role
from fogcontrol.core.roles import Role

# D5: the FOG Manager or an authorised enforcement officer (inspector) samples and records results.
SAMPLERS = frozenset({Role.FOG_MANAGER, Role.INSPECTOR})
# D4, D5: the discharge limits are permit conditions, set by the FOG Manager.
LIMIT_SETTERS = frozenset({Role.FOG_MANAGER})
# D7: the FOG Manager requires monitoring facilities and approves their location; the FOG Manager
# and inspectors record one installed.
FACILITY_SETTERS = frozenset({Role.FOG_MANAGER})
FACILITY_RECORDERS = frozenset({Role.FOG_MANAGER, Role.INSPECTOR})

# Who may take each step at all (API action names; pages name them too): a role outside them is
# refused (403) before its input is read (docs/architecture.md).
STEP_ROLES = {
    "create": (SAMPLERS, "Only the FOG Manager and inspectors record samples."),
    "custody": (SAMPLERS, "Only the FOG Manager and inspectors record a sample's hand-offs."),
    "results": (SAMPLERS, "Only the FOG Manager and inspectors record lab results."),
    "upload": (SAMPLERS, "Only the FOG Manager and inspectors upload lab results."),
    "charge": (SAMPLERS, "Only the FOG Manager and inspectors record compliance charges."),
}
LIMIT_STEPS = {"create": (LIMIT_SETTERS, "Only the FOG Manager sets discharge limits (permit conditions).")}
FACILITY_STEPS = {
    "create": (FACILITY_SETTERS, "Only the FOG Manager requires monitoring facilities (D7)."),
    "installed": (FACILITY_RECORDERS, "Only the FOG Manager and inspectors record a facility installed."),
}


def require_step(user, step: str, steps=None) -> None:
    """Refuse (403) a role that may never take `step`, before its input is read."""
    roles, refusal = (steps or STEP_ROLES)[step]
    require_role(user, roles, refusal)
