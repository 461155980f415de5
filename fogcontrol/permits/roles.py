"""Who decides what in the permits app (B5: "issuance by the FOG Manager")."""

from fogcontrol.core.roles import Role

# Who decides on applications and permits: accept, reject, issue, suspend, revoke, modify (B5, B7).
DECIDERS = frozenset({Role.FOG_MANAGER})
# Who may review: ask for information, schedule and record inspections, file on an FSE's behalf.
REVIEWERS = frozenset({Role.FOG_MANAGER, Role.INSPECTOR})
# Who sets the fee schedule. Fees are set by Council resolution; the FOG Manager records it, and
# every signed-in user may read it (docs/architecture.md, "Who may see what").
FEE_EDITORS = frozenset({Role.FOG_MANAGER})
# Who records that a fee was paid (B3): the FOG Manager and the billing clerk, at the counter.
FEE_COLLECTORS = frozenset({Role.FOG_MANAGER, Role.BILLING_CLERK})
