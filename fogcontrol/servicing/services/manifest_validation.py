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
from django.utils.translation import gettext

from fogcontrol.core.actors import is_job
from fogcontrol.core.images import open_image
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
from fogcontrol.servicing.refusals import HAULER_TEXT, NONE_ON_RECORD, NONE_YET, THE_ESTABLISHMENT, refusal

HAULER_NAME_MAX = Manifest._meta.get_field("hauler_name").max_length
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
    # Issue 18: the language the certification was shown in and signed (F7).
    certification_language: str = certification.ENGLISH


@dataclasses.dataclass
class Resolved:
    """A submission checked and resolved, ready to be stored."""

    fields: dict[str, Any]
    device: GreaseControlDevice
    ratio: Decimal | None
    # Another manifest (outside this correction chain) names the same hauler and number (F7).
    number_shared: bool = False


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
        errors.add("device", refusal("device_missing"))
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
        hauler = getattr(acting_user, "role", None) == Role.HAULER
        errors.add(
            "device", refusal("device_unknown_hauler" if hauler else "device_unknown", identifier=identifier)
        )
    return device


def _resolve_hauler(
    value, acting_user, device, errors: ValidationErrors, cache: dict | None = None
) -> tuple[HaulerCompany | None, str]:
    """The hauler company a submission names, and the hauler name kept on the manifest (F1).

    A hauler user names only its own company (blank: its one company). Town staff and jobs may name
    any registered company. An FSE or property owner may name only a hauler on the list of the
    establishment(s) the device serves (``FoodServiceEstablishment.haulers``). Anyone but a hauler
    may instead name someone who is no registered company (themselves, another firm): "self /
    other", kept by name and linked to no company, so it reaches no hauler's records or numbers.
    """
    if getattr(acting_user, "role", None) == Role.HAULER:
        company = _own_company(value, acting_user, errors, cache)
        return company, company.name if company else ""
    if value in (None, ""):
        return None, ""
    text = value.name if isinstance(value, HaulerCompany) else str(value).strip()
    company = value if isinstance(value, HaulerCompany) else _registered_hauler(text, cache)
    if is_job(acting_user) or acting_user.is_program_staff:
        if company is None and text.isdigit():
            errors.add("hauler", refusal("hauler_id_unknown", text=text))
            return None, ""
        return company, company.name if company else text
    if device is None:
        return None, ""  # the device's own message says what to fix; the list depends on it
    listed = _listed_haulers(device, cache)
    if company is None and not text.isdigit():
        return None, text
    if company is not None and any(listed_company.pk == company.pk for listed_company in listed):
        return company, company.name
    served = ", ".join(fse.business_name for fse in _served(device, cache)) or gettext(THE_ESTABLISHMENT)
    names = ", ".join(listed_company.name for listed_company in listed) or gettext(NONE_YET)
    errors.add(
        "hauler",
        refusal(
            "hauler_not_listed",
            company=company.name if company else gettext(HAULER_TEXT) % {"text": text},
            served=served,
            device=device.identifier,
            names=names,
        ),
    )
    return None, ""


def _own_company(value, acting_user, errors: ValidationErrors, cache: dict | None) -> HaulerCompany | None:
    """A hauler user's company: the one it names among its own, or its only one."""
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
            c for c in companies if str(c.pk) == str(value) or c.name.lower() == str(value).strip().lower()
        ]
        if not match:
            errors.add("hauler", refusal("hauler_not_yours", value=value))
            return None
        return match[0]
    if len(companies) == 1:
        return companies[0]
    errors.add("hauler", refusal("hauler_which"))
    return None


def _registered_hauler(text: str, cache: dict | None) -> HaulerCompany | None:
    key = ("hauler", text.lower())
    if cache is not None and key in cache:
        return cache[key]
    company = (
        HaulerCompany.objects.filter(pk=int(text)).first()
        if text.isdigit()
        else HaulerCompany.objects.filter(name__iexact=text).first()
    )
    if cache is not None:
        cache[key] = company
    return company


def _served(device: GreaseControlDevice, cache: dict | None) -> list[FoodServiceEstablishment]:
    key = ("establishments", device.pk)
    if cache is not None and key in cache:
        return cache[key]
    served = list(device.establishments.all())
    if cache is not None:
        cache[key] = served
    return served


def _listed_haulers(device: GreaseControlDevice, cache: dict | None) -> list[HaulerCompany]:
    """The haulers on the lists of the establishments the device serves."""
    key = ("listed_haulers", device.pk)
    if cache is not None and key in cache:
        return cache[key]
    listed = list(
        HaulerCompany.objects.filter(customers__in=[fse.pk for fse in _served(device, cache)])
        .distinct()
        .order_by("name")
    )
    if cache is not None:
        cache[key] = listed
    return listed


def _vehicle(hauler: HaulerCompany, plate: str, cache: dict | None) -> HaulerVehicle | None:
    key = ("vehicle", hauler.pk, plate)
    if cache is not None and key in cache:
        return cache[key]
    vehicle = HaulerVehicle.objects.filter(hauler=hauler, plate__iexact=plate).first()
    if cache is not None:
        cache[key] = vehicle
    return vehicle


def hauler_attests(acting_user, hauler: HaulerCompany | None) -> bool:
    """F1, F7: is the manifest number the named hauler's own? Yes when a user of that company
    (a hauler user can name only its own), Town staff (staff entry is staff confirmation) or a job
    stores it; no when an FSE or owner names its hauler, or when no company is named."""
    if hauler is None:
        return False
    if is_job(acting_user):
        return True
    return acting_user.is_program_staff or acting_user.role == Role.HAULER


def _resolve_establishment(
    value, device: GreaseControlDevice | None, errors: ValidationErrors, cache: dict | None
):
    if device is None:
        return None
    served = _served(device, cache)
    if value in (None, ""):
        return served[0] if len(served) == 1 else None
    if isinstance(value, FoodServiceEstablishment):
        match = [fse for fse in served if fse.pk == value.pk]
    else:
        text = str(value).strip().lower()
        match = [fse for fse in served if fse.licence_number.lower() == text or str(fse.pk) == text]
    if not match:
        names = ", ".join(f"{fse.business_name} ({fse.licence_number})" for fse in served) or gettext(
            NONE_ON_RECORD
        )
        errors.add(
            "establishment", refusal("establishment_not_served", device=device.identifier, names=names)
        )
        return None
    return match[0]


def _resolve_facility(value, errors: ValidationErrors, cache: dict | None = None) -> ReceivingFacility | None:
    if value in (None, ""):
        return None
    if isinstance(value, ReceivingFacility):
        return value
    text = str(value).strip()
    key = ("facility", text.lower())
    if cache is not None and key in cache:
        facility = cache[key]
    else:
        facility = (
            ReceivingFacility.objects.filter(pk=int(text)).first()
            if text.isdigit()
            else ReceivingFacility.objects.filter(name__iexact=text).first()
        )
    if facility is None:
        errors.add("receiving_facility", refusal("facility_unknown", text=text))
    return facility


def _check_attachments(files, errors: ValidationErrors) -> list[tuple[Any, str]]:
    """Each file: a PDF, JPEG or PNG by its content, no larger than the upload limit."""
    checked = []
    limit = settings.FOGCONTROL_MAX_UPLOAD_BYTES
    for upload in files or []:
        if upload.size > limit:
            errors.add(
                "attachments",
                refusal("attachment_too_large", name=upload.name, megabytes=limit // (1024 * 1024)),
            )
            continue
        head = upload.read(16)
        upload.seek(0)
        kind = next((ctype for magic, ctype in ATTACHMENT_SIGNATURES.items() if head.startswith(magic)), None)
        if kind is None:
            errors.add("attachments", refusal("attachment_kind", name=upload.name))
            continue
        if kind.startswith("image/"):
            try:
                open_image(upload.read(), "attachments", {"PNG"} if kind == "image/png" else {"JPEG", "MPO"})
            except ValidationError:
                errors.add("attachments", refusal("attachment_unreadable", name=upload.name))
                continue
            finally:
                upload.seek(0)
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
    numbers_on_record: dict | None = None,
) -> Resolved:
    """Check a submission; raise ValidationError naming every field that is wrong and how to fix it.

    ``numbers_on_record`` maps (hauler id, number) of every manifest on record to whether the
    number is the hauler's own (attested), when the caller holds them all (a history loaded in
    bulk into a program with none): the number is then checked against it, without a query.
    """
    if numbers_on_record is not None and corrects is not None:
        raise ValueError("numbers_on_record cannot judge a correction; leave it out.")
    errors = ValidationErrors()
    device = _resolve_device(submission.device, acting_user, errors, device_cache)
    hauler, hauler_name = _resolve_hauler(submission.hauler, acting_user, device, errors, device_cache)
    attested = hauler_attests(acting_user, hauler)
    if hauler is None and len(hauler_name) > HAULER_NAME_MAX:
        errors.add("hauler", refusal("hauler_name_long", limit=HAULER_NAME_MAX))
    if "\x00" in hauler_name:
        errors.add("hauler", refusal("null_character"))
    establishment = _resolve_establishment(submission.establishment, device, errors, device_cache)
    facility = _resolve_facility(submission.receiving_facility, errors, device_cache)

    number = (submission.manifest_number or "").strip()
    number_shared = False
    if not number:
        errors.add("manifest_number", refusal("number_missing"))
    elif hauler is not None:
        # F1, F7: unique among the numbers the hauler filed or staff confirmed; an FSE naming its
        # hauler neither blocks them nor is blocked (a shared number is flagged for review instead).
        if numbers_on_record is not None:  # the caller holds every number on record (no correction)
            known = numbers_on_record.get((hauler.pk, number))
            same_number = [] if known is None else [known]
        else:
            same_number = list(
                Manifest.objects.filter(hauler=hauler, manifest_number=number)
                .exclude(pk__in=chain_of(corrects))
                .order_by("-hauler_attested")  # an attested one first: it decides
                .values_list("hauler_attested", flat=True)[:1]
            )
        number_shared = bool(same_number)
        if attested and (
            any(same_number) or (seen_numbers is not None and (hauler.pk, number) in seen_numbers)
        ):
            errors.add("manifest_number", refusal("number_taken", hauler=hauler.name, number=number))

    serviced_at = submission.serviced_at
    service_date = None
    if serviced_at is None:
        errors.add("serviced_at", refusal("serviced_at_missing"))
    else:
        if timezone.is_naive(serviced_at):
            serviced_at = timezone.make_aware(serviced_at, ctx.zone())
        service_date = ctx.local_date(serviced_at)
        if serviced_at > timezone.now():
            errors.add("serviced_at", refusal("serviced_at_future"))
        elif device is not None and device.installed_on and service_date < device.installed_on:
            errors.add(
                "serviced_at",
                refusal(
                    "serviced_before_installed",
                    device=device.identifier,
                    installed=f"{device.installed_on:%Y-%m-%d}",
                ),
            )

    for name in ("fog_depth_in", "solids_depth_in", "gallons_removed"):
        value = getattr(submission, name)
        if value is not None and value < 0:
            errors.add(name, refusal("negative"))
    if (submission.fog_depth_in is None) != (submission.solids_depth_in is None):
        missing = "solids_depth_in" if submission.solids_depth_in is None else "fog_depth_in"
        errors.add(missing, refusal("depths_both"))
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
                refusal(
                    "depths_deeper",
                    fog=submission.fog_depth_in,
                    solids=submission.solids_depth_in,
                    device=device.identifier,
                    depth=device.total_design_depth_in,
                ),
            )

    vehicle = None
    plate = (submission.vehicle_plate or "").strip().upper()
    if plate and hauler is not None:
        vehicle = _vehicle(hauler, plate, device_cache)
    if (
        vehicle is not None
        and vehicle.tank_capacity_gallons
        and submission.gallons_removed is not None
        and submission.gallons_removed > vehicle.tank_capacity_gallons
    ):
        errors.add(
            "gallons_removed",
            refusal(
                "gallons_over_vehicle",
                gallons=submission.gallons_removed,
                plate=vehicle.plate,
                capacity=vehicle.tank_capacity_gallons,
            ),
        )

    if submission.delivered_on and service_date and submission.delivered_on < service_date:
        errors.add("delivered_on", refusal("delivered_before_service"))

    signer = (submission.certified_by_name or "").strip()
    if not signer:
        errors.add("certified_by_name", refusal("certifier_missing"))
    version = (submission.certification_version or "").strip()
    if not version:
        errors.add(
            "certification_version", refusal("certification_missing", current=certification.CURRENT_VERSION)
        )
    elif certification.certification_text(version) is None:
        errors.add(
            "certification_version",
            refusal("certification_unknown", version=version, current=certification.CURRENT_VERSION),
        )
    language = (submission.certification_language or certification.ENGLISH).strip()
    if version and certification.certification_text(version, language) is None:
        errors.add(
            "certification_language",
            f"The certification is written in {', '.join(certification.BY_LANGUAGE)}: certify in one of them.",
        )

    for name in ("driver_name", "condition_notes", "certified_by_name", "manifest_number"):
        value = getattr(submission, name) or ""
        if "\x00" in value:
            errors.add(name, refusal("null_character"))

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
        "hauler_name": hauler_name,
        "hauler_attested": attested,
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
        "certification_text": certification.certification_text(version, language),
        "_attachments": attachments,
    }
    return Resolved(fields=fields, device=device, ratio=ratio, number_shared=number_shared)


def chain_of(manifest: Manifest | None) -> list[int]:
    """The ids of a manifest and every earlier version it corrects (a correction chain)."""
    ids = []
    while manifest is not None:
        ids.append(manifest.pk)
        manifest = manifest.corrects
    return ids
