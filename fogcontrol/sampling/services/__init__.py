"""Every write in sampling (D5, D6, D7): keyword-only arguments, an acting user (or a job label),
one transaction, an audit entry, the role checked with ``require_role``."""

from fogcontrol.sampling.services.charges import SAMPLE_CHARGE_KINDS, sample_charge
from fogcontrol.sampling.services.facilities import (
    facilities_overdue_sweep,
    facility_installed,
    facility_require,
)
from fogcontrol.sampling.services.limits import limit_set
from fogcontrol.sampling.services.results import parse_results_csv, results_record, results_upload
from fogcontrol.sampling.services.samples import custody_add, sample_record

__all__ = [
    "SAMPLE_CHARGE_KINDS",
    "custody_add",
    "facilities_overdue_sweep",
    "facility_installed",
    "facility_require",
    "limit_set",
    "parse_results_csv",
    "results_record",
    "results_upload",
    "sample_charge",
    "sample_record",
]
