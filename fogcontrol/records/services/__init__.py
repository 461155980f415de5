"""Every write to the FSE's own records (C2, C4, C5, D7, E9, F2, F3, F6), split by operation."""

from fogcontrol.records.services.pickups import oil_pickup_record
from fogcontrol.records.services.requirements import requirement_end, requirement_set
from fogcontrol.records.services.submissions import submission_correct, submission_review, submission_submit
from fogcontrol.records.services.sweep import late_reports_sweep
from fogcontrol.records.services.training import (
    employee_add,
    training_attendance_sign,
    training_session_record,
)
from fogcontrol.records.services.training_sweep import late_training_sweep

__all__ = [
    "employee_add",
    "late_reports_sweep",
    "late_training_sweep",
    "oil_pickup_record",
    "requirement_end",
    "requirement_set",
    "submission_correct",
    "submission_review",
    "submission_submit",
    "training_attendance_sign",
    "training_session_record",
]
