"""Every write in inspections: keyword-only arguments, an acting user (or a job label), one
transaction, an audit entry, the role checked with ``require_role``."""

from fogcontrol.inspections.services.charges import compliance_charge_cancel, compliance_charge_record
from fogcontrol.inspections.services.completion import inspection_complete
from fogcontrol.inspections.services.drafts import inspection_save_draft, photo_add
from fogcontrol.inspections.services.scheduling import (
    inspection_assign,
    inspection_cancel,
    inspection_schedule,
)

__all__ = [
    "compliance_charge_cancel",
    "compliance_charge_record",
    "inspection_assign",
    "inspection_cancel",
    "inspection_complete",
    "inspection_save_draft",
    "inspection_schedule",
    "photo_add",
]
