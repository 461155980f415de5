"""Checking a manifest before it is kept: one set of rules for the portal, the CSV upload and the
API (E6, E7, F1-F7).

Every entry path builds a ``ManifestSubmission``; ``manifest_validate`` resolves the device, hauler,
establishment and receiving facility it names (within the submitter's scope) and refuses what cannot
be true, with a message naming the field and how to fix it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone

from fogcontrol.core.actors import is_job
from fogcontrol.core.roles import Role
from fogcontrol.registry.models import (
    FoodServiceEstablishment,
    GreaseControlDevice,
    HaulerCompany,
    HaulerVehicle,
    ReceivingFacility,
)
from fogcontrol.registry.selectors import devices_visible_to
from fogcontrol.rules.devices import fill_ratio as rules_fill_ratio
from fogcontrol.servicing import certification
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.models import Manifest

ATTACHMENT_SIGNATURES = {
    b"%PDF-": "application/pdf",
    b"\xff\xd8\xff": "image/jpeg",
    b"\x89PNG\r\n\x1a\n": "image/png",
}


@dataclasses.dataclass
class ManifestSubmission:
    """A manifest as an entry path read it. ``device``, ``establishment``, ``hauler`` and
    ``receiving_facility`` may be records or the text the submitter typed (resolved in scope)."""

    device: Any
    manifest_number: str
    serviced_at: dt.datetime | None
    full_pumpout: bool
    baffles_cleaned: bool
    certified_by_name: str
    certification_version: str
    establishment: Any = None
    hauler: Any = None
    driver_name: str = ""
    vehicle_plate: str = ""
    fog_depth_in: Decimal | None = None
    solids_depth_in: Decimal | None = None
    gallons_removed: Decimal | None = None
    leak_observed: bool = False
    damaged_baffles: bool = False
    damaged_tees: bool = False
    condition_notes: str = ""
    receiving_facility: Any = None
    delivered_on: dt.date | None = None
    attachments: list = dataclasses.field(default_factory=list)


@dataclasses.dataclass
class Resolved:
    """A submission checked and resolved, ready to be stored."""

    fields: dict[str, Any]
    device: GreaseControlDevice
    ratio: Decimal | None


class ValidationErrors:
    """Collects messages per field so the submitter sees every problem at once."""

    def __init__(self) -> None:
        self.errors: dict[str, list[str]] = {}

    def add(self, field: str, message: str) -> None:
        self.errors.setdefault(field, []).append(message)

    def raise_if_any(self) -> None:
        if self.errors:
            raise ValidationError(self.errors)


# --- resolution --------------------------------------------------------------------------------


def _resolve_device(
    value, acting_user, errors: ValidationErrors, cache: dict | None
) -> GreaseControlDevice | None:
    if isinstance(value, GreaseControlDevice):
        identifier, pk = value.identifier, value.pk
    else:
        identifier, pk = str(value or "").strip(), None
    if not identifier:
        errors.add(
            "device", "Name the device: its Town device number, e.g. GI-00042, from the lid tag or permit."
        )
        return None
    key = identifier.upper()
    if cache is not None and key in cache:
        device = cache[key]
    else:
        visible = (
            GreaseControlDevice.objects.all() if is_job(acting_user) else devices_visible_to(acting_user)
        )
        device = (visible.filter(pk=pk) if pk else visible.filter(identifier__iexact=identifier)).first()
        if cache is not None:
            cache[key] = device
    if device is None:
        hint = ""
        if getattr(acting_user, "role", None) == Role.HAULER:
            hint = " If it is a new customer, ask the FSE to name your company as its hauler."
        errors.add(
            "device",
            f"No device {identifier} among the devices you may report on. Check the device number on the "
            f"lid tag or the permit.{hint}",
        )
    return device


def _resolve_hauler(
    value, acting_user, errors: ValidationErrors, cache: dict | None = None
) -> HaulerCompany | None:
    if getattr(acting_user, "role", None) == Role.HAULER:
        if cache is not None and "hauler_companies" in cache:
            companies = cache["hauler_companies"]
        else:
            companies = list(acting_user.hauler_companies.all())
            if cache is not None:
                cache["hauler_companies"] = companies
        if isinstance(value, HaulerCompany):
            value = value.pk
        if value not in (None, ""):
            match = [
                c
                for c in companies
                if str(c.pk) == str(value) or c.name.lower() == str(value).strip().lower()
            ]
            if not match:
                errors.add("hauler", f"You do not work for a hauler named {value}; name your own company.")
                return None
            return match[0]
        if len(companies) == 1:
            return companies[0]
        errors.add(
            "hauler",
            "Your account belongs to no hauler company, or to several: name the company that did this work.",
        )
        return None
    if value in (None, ""):
        return None
    if isinstance(value, HaulerCompany):
        return value
    text = str(value).strip()
    company = (
        HaulerCompany.objects.filter(pk=int(text)).first()
        if text.isdigit()
        else HaulerCompany.objects.filter(name__iexact=text).first()
    )
    if company is None:
        errors.add(
            "hauler", f"No hauler company named {text} is registered; check the name or leave it blank."
        )
    return company


def _resolve_establishment(
    value, device: GreaseControlDevice | None, errors: ValidationErrors, cache: dict | None
):
    if device is None:
        return None
    key = ("establishments", device.pk)
    if cache is not None and key in cache:
        served = cache[key]
    else:
        served = list(device.establishments.all())
        if cache is not None:
            cache[key] = served
    if value in (None, ""):
        return served[0] if len(served) == 1 else None
    if isinstance(value, FoodServiceEstablishment):
        match = [fse for fse in served if fse.pk == value.pk]
    else:
        text = str(value).strip().lower()
        match = [fse for fse in served if fse.licence_number.lower() == text or str(fse.pk) == text]
    if not match:
        names = ", ".join(f"{fse.business_name} ({fse.licence_number})" for fse in served) or "none on record"
        errors.add(
            "establishment",
            f"That establishment is not served by device {device.identifier}; it serves: {names}.",
        )
        return None
    return match[0]


def _resolve_facility(value, errors: ValidationErrors) -> ReceivingFacility | None:
    if value in (None, ""):
        return None
    if isinstance(value, ReceivingFacility):
        return value
    text = str(value).strip()
    facility = (
        ReceivingFacility.objects.filter(pk=int(text)).first()
        if text.isdigit()
        else ReceivingFacility.objects.filter(name__iexact=text).first()
    )
    if facility is None:
        errors.add(
            "receiving_facility",
            f"No receiving facility named {text} is registered; use the facility's registered name.",
        )
    return facility


def _check_attachments(files, errors: ValidationErrors) -> list[tuple[Any, str]]:
    """Each file: a PDF, JPEG or PNG by its content, no larger than the upload limit."""
    checked = []
    limit = settings.FOGCONTROL_MAX_UPLOAD_BYTES
    for upload in files or []:
        if upload.size > limit:
            errors.add(
                "attachments",
                f"{upload.name} is larger than {limit // (1024 * 1024)} MB; scan it at a lower resolution.",
            )
            continue
        head = upload.read(16)
        upload.seek(0)
        kind = next((ctype for magic, ctype in ATTACHMENT_SIGNATURES.items() if head.startswith(magic)), None)
        if kind is None:
            errors.add(
                "attachments",
                f"{upload.name} is not a PDF, JPEG or PNG file; attach the scanned ticket or a photo.",
            )
            continue
        checked.append((upload, kind))
    return checked


# --- validation --------------------------------------------------------------------------------


def manifest_validate(
    submission: ManifestSubmission,
    *,
    acting_user,
    ctx: ProgramContext,
    corrects: Manifest | None = None,
    device_cache: dict | None = None,
    seen_numbers: set | None = None,
) -> Resolved:
    """Check a submission; raise ValidationError naming every field that is wrong and how to fix it."""
    errors = ValidationErrors()
    device = _resolve_device(submission.device, acting_user, errors, device_cache)
    hauler = _resolve_hauler(submission.hauler, acting_user, errors, device_cache)
    establishment = _resolve_establishment(submission.establishment, device, errors, device_cache)
    facility = _resolve_facility(submission.receiving_facility, errors)

    number = (submission.manifest_number or "").strip()
    if not number:
        errors.add("manifest_number", "Enter the manifest or ticket number printed on the hauler's ticket.")
    elif hauler is not None:
        clash = Manifest.objects.filter(hauler=hauler, manifest_number=number, corrects__isnull=True)
        if corrects is not None:
            clash = clash.exclude(pk=_original(corrects).pk)
        if clash.exists() or (seen_numbers is not None and (hauler.pk, number) in seen_numbers):
            errors.add(
                "manifest_number",
                f"{hauler.name} already submitted manifest {number}. To change it, submit a correction of that manifest.",
            )

    serviced_at = submission.serviced_at
    service_date = None
    if serviced_at is None:
        errors.add("serviced_at", "Enter the date and time of service.")
    else:
        if timezone.is_naive(serviced_at):
            serviced_at = timezone.make_aware(serviced_at, ctx.zone())
        service_date = ctx.local_date(serviced_at)
        if serviced_at > timezone.now():
            errors.add(
                "serviced_at",
                "The date of service is in the future; enter the day and time the work was done.",
            )
        elif device is not None and device.installed_on and service_date < device.installed_on:
            errors.add(
                "serviced_at",
                f"The date of service is before device {device.identifier} was installed "
                f"({device.installed_on:%Y-%m-%d}); check the date or the device number.",
            )

    for name in ("fog_depth_in", "solids_depth_in", "gallons_removed"):
        value = getattr(submission, name)
        if value is not None and value < 0:
            errors.add(name, "Must not be negative.")
    if (submission.fog_depth_in is None) != (submission.solids_depth_in is None):
        missing = "solids_depth_in" if submission.solids_depth_in is None else "fog_depth_in"
        errors.add(
            missing, "Give both the FOG depth and the solids depth measured before pumping, or neither."
        )
    ratio = None
    if (
        device is not None
        and device.total_design_depth_in
        and submission.fog_depth_in is not None
        and submission.solids_depth_in is not None
        and submission.fog_depth_in >= 0
        and submission.solids_depth_in >= 0
    ):
        try:
            ratio = rules_fill_ratio(
                submission.fog_depth_in, submission.solids_depth_in, device.total_design_depth_in
            )
        except ValueError as exc:
            errors.add(
                "fog_depth_in" if "+" in str(exc) else str(exc).split(":")[0],
                f"FOG {submission.fog_depth_in} in + solids {submission.solids_depth_in} in is deeper than device "
                f"{device.identifier} ({device.total_design_depth_in} in total depth); check the measurements.",
            )

    vehicle = None
    plate = (submission.vehicle_plate or "").strip().upper()
    if plate and hauler is not None:
        vehicle = HaulerVehicle.objects.filter(hauler=hauler, plate__iexact=plate).first()
    if (
        vehicle is not None
        and vehicle.tank_capacity_gallons
        and submission.gallons_removed is not None
        and submission.gallons_removed > vehicle.tank_capacity_gallons
    ):
        errors.add(
            "gallons_removed",
            f"{submission.gallons_removed} gallons is more than vehicle {vehicle.plate} holds "
            f"({vehicle.tank_capacity_gallons} gallons); check the volume or the vehicle.",
        )

    if submission.delivered_on and service_date and submission.delivered_on < service_date:
        errors.add(
            "delivered_on",
            "The delivery to the receiving facility is dated before the service; check the dates.",
        )

    signer = (submission.certified_by_name or "").strip()
    if not signer:
        errors.add(
            "certified_by_name",
            "The manifest must be certified: type the full name of the person certifying it (your typed name is your signature).",
        )
    version = (submission.certification_version or "").strip()
    if not version:
        errors.add(
            "certification_version",
            f"Missing certification: certify with the current text, version {certification.CURRENT_VERSION}.",
        )
    elif certification.certification_text(version) is None:
        errors.add(
            "certification_version",
            f"Unknown certification version {version}; the current text is version {certification.CURRENT_VERSION}.",
        )

    for name in ("driver_name", "condition_notes", "certified_by_name", "manifest_number"):
        value = getattr(submission, name) or ""
        if "\x00" in value:
            errors.add(name, "Contains a null character; retype the value.")

    attachments = _check_attachments(submission.attachments, errors)
    errors.raise_if_any()

    site = (
        establishment.site_address
        if establishment
        else (device.parcel.situs_address if device.parcel_id else "")
    )
    fields = {
        "device": device,
        "establishment": establishment,
        "site_address": site,
        "hauler": hauler,
        "hauler_name": hauler.name if hauler else "",
        "driver_name": (submission.driver_name or "").strip(),
        "vehicle": vehicle,
        "vehicle_plate": plate,
        "manifest_number": number,
        "serviced_at": serviced_at.astimezone(dt.UTC),
        "service_date": service_date,
        "full_pumpout": bool(submission.full_pumpout),
        "baffles_cleaned": bool(submission.baffles_cleaned),
        "fog_depth_in": submission.fog_depth_in,
        "solids_depth_in": submission.solids_depth_in,
        "fill_ratio": ratio.quantize(Decimal("0.0001")) if ratio is not None else None,
        "gallons_removed": submission.gallons_removed,
        "leak_observed": bool(submission.leak_observed),
        "damaged_baffles": bool(submission.damaged_baffles),
        "damaged_tees": bool(submission.damaged_tees),
        "condition_notes": (submission.condition_notes or "").strip(),
        "receiving_facility": facility,
        "delivered_on": submission.delivered_on,
        "certified_by_name": signer,
        "certification_version": version,
        "certification_text": certification.certification_text(version),
        "_attachments": attachments,
    }
    return Resolved(fields=fields, device=device, ratio=ratio)


def _original(manifest: Manifest) -> Manifest:
    while manifest.corrects_id:
        manifest = manifest.corrects
    return manifest
