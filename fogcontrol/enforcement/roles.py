"""Who may do what in enforcement (docs/enforcement.md). Scope (which records) is ``querysets.py``;
these are the roles.

- Open, cure and group violations, issue notices of violation and citations, agree compliance
  schedules: the FOG Manager and inspectors (authorised enforcement officers, D1, D8).
- Hearings, decisions and penalty orders: the Hearing Officer (with the FOG Manager recording).
- Everyone on the Town's staff reads; an FSE reads its own violations and cases, without the
  internal notes.
"""

from fogcontrol.core.roles import Role

ENFORCEMENT_OFFICERS = frozenset({Role.FOG_MANAGER, Role.INSPECTOR})
HEARING_RECORDERS = frozenset({Role.FOG_MANAGER, Role.HEARING_OFFICER})
# Who reads a case's internal notes: the Town's staff (never the FSE).
INTERNAL_NOTE_READERS = frozenset(
    {Role.FOG_MANAGER, Role.INSPECTOR, Role.HEARING_OFFICER, Role.BILLING_CLERK, Role.STAFF_READONLY}
)
# Who begins suspension or revocation (L1) and orders an emergency suspension (M1): the FOG Manager
# alone. The case page's offer (actions.case_actions) and the services read this one set.
SUSPENSION_ISSUERS = frozenset({Role.FOG_MANAGER})
# Who records a citation paid until billing keeps the receipts.
PAYMENT_RECORDERS = frozenset({Role.FOG_MANAGER, Role.BILLING_CLERK})
