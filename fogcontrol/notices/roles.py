"""Who may do what with documents and their templates. Scope (which records) is ``querysets.py``;
this is the role. core/roles.py has no Town clerk: the Hearing Officer adopts decisions' texts with
the FOG Manager."""

from fogcontrol.core.roles import Role

# Draft and edit template versions (the Town's wording).
TEMPLATE_EDITORS = frozenset({Role.FOG_MANAGER, Role.HEARING_OFFICER})
# Issue documents and record their service: notices and letters (FOG Manager, inspectors), orders
# and decisions (Hearing Officer), invoices and cost notices (Billing Clerk).
DOCUMENT_ISSUERS = frozenset({Role.FOG_MANAGER, Role.INSPECTOR, Role.HEARING_OFFICER, Role.BILLING_CLERK})

EDITORS_ONLY = "Only the FOG Manager and the Hearing Officer change document templates."
ISSUERS_ONLY = "Only the FOG Manager, inspectors, the Hearing Officer and the Billing Clerk issue documents."
