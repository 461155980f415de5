"""Who may do what in billing (Q1, Q2, P8, P9, P12). Scope (which accounts) is ``querysets.py``.

The Billing Clerk and the FOG Manager bill, take payments, allocate, cancel and refund; a write-off
and a lien (P9) are asked for by one of them and approved by another (two-person rule). Other staff
read.
"""

from fogcontrol.core.roles import Role

BILLERS = frozenset({Role.FOG_MANAGER, Role.BILLING_CLERK})
APPROVERS = BILLERS

_BILLER = (BILLERS, "Only the Billing Clerk and the FOG Manager may do this.")

STEP_ROLES: dict[str, tuple[frozenset, str]] = {
    "invoice": _BILLER,
    "charge": _BILLER,
    "pay": _BILLER,
    "allocate": _BILLER,
    "cancel": _BILLER,
    "deliver": _BILLER,
    "refund": _BILLER,
    "write_off": _BILLER,
    "approve_write_off": (APPROVERS, "Only the Billing Clerk and the FOG Manager approve write-offs."),
    "lien": _BILLER,
    "approve_lien": (APPROVERS, "Only the Billing Clerk and the FOG Manager approve liens."),
    "pickup": _BILLER,
}
