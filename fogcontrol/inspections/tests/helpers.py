"""Shared test helpers for inspections: a signature drawing, a visit time, a filled-in draft."""

from __future__ import annotations

import base64
import datetime as dt
import io
import uuid
from decimal import Decimal

from PIL import Image, ImageDraw

from fogcontrol.inspections.models import Inspection
from fogcontrol.inspections.services import inspection_save_draft, inspection_schedule
from fogcontrol.program.selectors import town_calendar, town_today, town_zone


def signature_data_url() -> str:
    image = Image.new("RGBA", (300, 100), (0, 0, 0, 0))
    ImageDraw.Draw(image).line([(10, 80), (120, 20), (290, 70)], fill=(0, 0, 0, 255), width=4)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()


def photo_bytes(size=(640, 480), fmt="JPEG") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (120, 90, 40)).save(out, format=fmt)
    return out.getvalue()


def business_day_before_today() -> dt.date:
    calendar = town_calendar()
    day = town_today() - dt.timedelta(days=1)
    while not calendar.is_business_day(day):
        day -= dt.timedelta(days=1)
    return day


def at(day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=town_zone())


def key() -> str:
    return str(uuid.uuid4())


def scheduled(establishment, user, **kwargs) -> Inspection:
    kwargs.setdefault("scheduled_on", business_day_before_today())
    kwargs.setdefault("inspector", user)
    return inspection_schedule(establishment=establishment, acting_user=user, **kwargs)


def ready(inspection: Inspection, user, *, hour: int = 10, **changes) -> Inspection:
    """A draft with the visit's times and both signatures: ready to complete."""
    day = inspection.scheduled_on
    values = {
        "started_at": at(day, hour),
        "finished_at": at(day, hour, 45),
        "inspector_signed_name": "Ines Inspector",
        "inspector_signature": signature_data_url(),
        "fse_signed_name": "Frank Owner",
        "fse_signature": signature_data_url(),
        "person_met": "Frank Owner",
    }
    values.update(changes)
    return inspection_save_draft(inspection=inspection, acting_user=user, changes=values)


def depths(device, fog: str, solids: str) -> dict:
    return {"devices": {device.pk: {"fog_depth_in": Decimal(fog), "solids_depth_in": Decimal(solids)}}}
