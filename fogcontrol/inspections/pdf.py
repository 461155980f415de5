"""The inspection report (WeasyPrint): what was checked, what was found with its provision, the
25% result of each device, the business-hours flag (D1) and both signatures, for the FSE's
portal. Rendered from a completed inspection, which no longer changes, so a reprint reads as
the original.

It prints in the FSE's language (issue 18, as the permit PDF): an FSE user downloading it reads its
own ``preferred_language``; staff who print it get the establishment's contact's (else its
operator's); ``language`` chooses. The rules' words (checklist, findings) are translated by
``report_text``; what the inspector wrote prints as written."""

from __future__ import annotations

import base64

from django.utils import translation

from fogcontrol.core.languages import document_language, establishment_recipient
from fogcontrol.core.pdf import render_pdf
from fogcontrol.findings.models import Finding
from fogcontrol.inspections import report_text
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


def report_language(inspection: Inspection, *, user=None, language: str | None = None) -> str:
    """The language the report prints in for ``user`` (see the module docstring)."""
    return document_language(user, establishment_recipient(inspection.establishment), asked=language)


def inspection_pdf(
    inspection: Inspection,
    *,
    findings: list[Finding],
    sections: list,
    devices: list,
    user=None,
    language: str | None = None,
) -> bytes:
    """The report of a completed inspection as PDF bytes."""
    language = report_language(inspection, user=user, language=language)
    with translation.override(language):
        found = [
            {
                "finding": f,
                "description": report_text.finding_description(f),
                "reading": report_text.reading(f.reading),
            }
            for f in findings
        ]
        sections, devices = report_text.sections(sections), report_text.devices(devices)
    return render_pdf(
        "inspections/pdf/report.html",
        {
            "inspection": inspection,
            "findings": found,
            "sections": sections,
            "devices": devices,
            "town": town_profile(),
            "rules": ruleset_on(inspection.visited_on or inspection.scheduled_on),
            "inspector_signature": _image(inspection.inspector_signature),
            "fse_signature": _image(inspection.fse_signature),
        },
        language=language,
    )
