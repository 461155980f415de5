"""Every write to spills: keyword-only arguments, an acting user (or a job label), one transaction,
an audit entry."""

from fogcontrol.spills.services.common import derive_category
from fogcontrol.spills.services.costs import cost_cancel, cost_deadline, cost_record
from fogcontrol.spills.services.reports import (
    WrittenDeadlines,
    report_record,
    written_deadline,
    written_report_submit,
)
from fogcontrol.spills.services.spills import spill_link, spill_photo_add, spill_record
from fogcontrol.spills.services.sweep import overdue_written_reports_sweep

__all__ = [
    "WrittenDeadlines",
    "cost_cancel",
    "cost_deadline",
    "cost_record",
    "derive_category",
    "overdue_written_reports_sweep",
    "report_record",
    "spill_link",
    "spill_photo_add",
    "spill_record",
    "written_deadline",
    "written_report_submit",
]
