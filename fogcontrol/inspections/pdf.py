"""The inspection report (WeasyPrint): what was checked, what was found with its provision, the
25% result of each device, the business-hours flag (D1) and both signatures, for the FSE's
portal. Rendered from a completed inspection, which no longer changes, so a reprint reads as
the original."""

from __future__ import annotations

import base64
import logging

from django.template.loader import render_to_string

from fogcontrol.findings.models import Finding
from fogcontrol.inspections.models import Inspection
from fogcontrol.program.selectors import ruleset_on, town_profile


def _image(field_file) -> str:
    """A stored signature as a data URL, so the PDF needs no file access beyond this read."""
    if not field_file:
        return ""
    try:
        with field_file.open("rb") as handle:
            return "data:image/png;base64," + base64.b64encode(handle.read()).decode("ascii")
    except FileNotFoundError:
        return ""


def inspection_pdf(
    inspection: Inspection, *, findings: list[Finding], sections: list, devices: list
) -> bytes:
    """The report of a completed inspection as PDF bytes."""
    logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)
    # Imported when a report is printed, so pages and API start without WeasyPrint (as permits do).
    from weasyprint import HTML

    html = render_to_string(
        "inspections/pdf/report.html",
        {
            "inspection": inspection,
            "findings": findings,
            "sections": sections,
            "devices": devices,
            "town": town_profile(),
            "rules": ruleset_on(inspection.visited_on or inspection.scheduled_on),
            "inspector_signature": _image(inspection.inspector_signature),
            "fse_signature": _image(inspection.fse_signature),
        },
    )
    return HTML(string=html).write_pdf()
