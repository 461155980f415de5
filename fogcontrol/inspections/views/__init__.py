"""Inspection pages: thin views, each calling one selector or service."""

from fogcontrol.inspections.views.charges import charge_cancel, charge_list, charge_new
from fogcontrol.inspections.views.files import photo_download, report_pdf
from fogcontrol.inspections.views.lists import day_list, due_list, inspection_list, schedule
from fogcontrol.inspections.views.visit import (
    assign,
    cancel,
    follow_up,
    inspection_complete,
    inspection_detail,
    inspection_edit,
    photo_upload,
)

__all__ = [
    "assign",
    "cancel",
    "charge_cancel",
    "charge_list",
    "charge_new",
    "day_list",
    "due_list",
    "follow_up",
    "inspection_complete",
    "inspection_detail",
    "inspection_edit",
    "inspection_list",
    "photo_download",
    "photo_upload",
    "report_pdf",
    "schedule",
]
