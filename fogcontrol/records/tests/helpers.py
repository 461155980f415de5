"""Shared test helpers for records: a signature drawn on screen, a PDF upload, a town date, a BMP
status report the FSE has submitted."""

from __future__ import annotations

import base64
import datetime as dt
import io

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image, ImageDraw

from fogcontrol.core.roles import Role
from fogcontrol.program.selectors import town_today

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def signature_data_url() -> str:
    image = Image.new("RGBA", (300, 100), (0, 0, 0, 0))
    ImageDraw.Draw(image).line([(10, 80), (120, 20), (290, 70)], fill=(0, 0, 0, 255), width=4)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()


def pdf_upload(name: str = "report.pdf", content: bytes = PDF) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="application/pdf")


def days_ago(days: int) -> dt.date:
    return town_today() - dt.timedelta(days=days)


def bmp_report_submitted(town):
    """A BMP status report asked of the town's own FSE every three months and submitted by its user
    (not yet reviewed): (FOG Manager, FSE user, submission)."""
    from fogcontrol.records import services

    manager, fse = town.users[Role.FOG_MANAGER], town.users[Role.FSE]
    requirement = services.requirement_set(
        establishment=town.own_fse, kind="bmp_status", unit="months", every=3, first_due_on=days_ago(5),
        requested_on=days_ago(30), acting_user=manager,
    )  # fmt: skip
    submission = services.submission_submit(
        requirement=requirement, uploaded_file=pdf_upload(), acting_user=fse
    )
    return manager, fse, submission
