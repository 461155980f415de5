"""Sampling pages: thin views, each calling one selector or service."""

from fogcontrol.sampling.views.samples import (
    charge_add,
    custody_add,
    report_download,
    result_add,
    results_upload,
    sample_detail,
    sample_list,
    sample_new,
)
from fogcontrol.sampling.views.setup import facility_installed, facility_list, limit_list

__all__ = [
    "charge_add",
    "custody_add",
    "facility_installed",
    "facility_list",
    "limit_list",
    "report_download",
    "result_add",
    "results_upload",
    "sample_detail",
    "sample_list",
    "sample_new",
]
