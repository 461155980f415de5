"""Spills the tests record: a FOG-caused overflow at the FSE's door, and an FSE's notice."""

from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal

from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from PIL import Image

from fogcontrol.core.roles import Role
from fogcontrol.spills import services


def at(day: dt.date, hour: int = 10) -> dt.datetime:
    return timezone.make_aware(dt.datetime.combine(day, dt.time(hour)))


def fog_spill(town, *, links=(), day: dt.date | None = None, gallons="120", **fields):
    day = day or timezone.localdate() - dt.timedelta(days=3)
    values = {
        "kind": "sso",
        "address": "100 Main Street",
        "started_at": at(day),
        "volume_spilled": Decimal(gallons),
        "volume_recovered": Decimal("100"),
        "volume_reached_surface_water": Decimal("0"),
        "destination": "street",
        "cause": "grease",
        "latitude": Decimal("37.5"),
        "longitude": Decimal("-122.3"),
    }
    values.update(fields)
    return services.spill_record(acting_user=town.users[Role.INSPECTOR], links=links, **values)


def notice(town, *, day: dt.date, user=None):
    return services.report_record(
        establishment=town.own_fse,
        occurred_at=at(day),
        location="Back door grease bin",
        what="Grease bin overturned into the yard drain",
        gallons=Decimal("5"),
        acting_user=user or town.users[Role.FSE],
    )


def photo_upload(name: str = "spill.png") -> SimpleUploadedFile:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), (120, 90, 40)).save(out, format="PNG")
    return SimpleUploadedFile(name, out.getvalue(), content_type="image/png")
