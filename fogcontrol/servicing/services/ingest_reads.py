"""What a chunk of manifests needs from the database, read in a fixed number of queries (issue 16).

``manifest_validate`` looks up the device, hauler, establishment, vehicle, receiving facility and
the hauler's numbers one row at a time, through its cache; ``chunk_reads`` fills that cache for
every row of a chunk at once (one query per kind of record, whatever the number of rows), and
reads each device's recent history (the window ``device_events`` reads: the newest
``HISTORY_MANIFESTS`` effective manifests and ``HISTORY_READINGS`` readings, by a window function),
its open requirements, its state row, and the manifests of the same trucks around the chunk's
times (the F7 vehicle check). Nothing here judges: ``ingest.py`` does, with the services' rules.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections import defaultdict

from django.db.models import F, Q, Window
from django.db.models.functions import RowNumber, Upper
from django.utils import timezone

from fogcontrol.core.actors import is_job
from fogcontrol.core.roles import Role
from fogcontrol.core.set_sql import json_values
from fogcontrol.registry.models import (
    FoodServiceEstablishment,
    GreaseControlDevice,
    HaulerCompany,
    HaulerVehicle,
    ReceivingFacility,
)
from fogcontrol.registry.selectors import devices_visible_to
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.models import DeviceServiceState, Manifest, ServiceRequirement, SludgeReading
from fogcontrol.servicing.services.state import HISTORY_MANIFESTS, HISTORY_READINGS


@dataclasses.dataclass
class ChunkReads:
    cache: dict  # manifest_validate's cache, filled for every row
    numbers: dict  # (hauler id, number) -> attested, of every manifest on record naming them
    manifests: dict  # device id -> [named rows of a Manifest's fields], newest first, the history window
    readings: dict  # device id -> [SludgeReading], newest first, the history window
    requirements: dict  # device id -> [ServiceRequirement] open, in the row path's order
    e8_exceptions: dict  # device id -> the state row's E8 exception
    trucks: list  # effective manifests of the chunk's trucks around its times
    hauler_ids: set  # the haulers whose numbers ``numbers`` holds


def _text(value) -> str:
    return str(value or "").strip()


def _devices(submissions, acting_user, cache: dict) -> list[GreaseControlDevice]:
    keys, pks = set(), set()
    for submission in submissions:
        value = submission.device
        if isinstance(value, GreaseControlDevice):
            pks.add(value.pk)
        elif _text(value):
            keys.add(_text(value).upper())
    visible = GreaseControlDevice.objects.all() if is_job(acting_user) else devices_visible_to(acting_user)
    found = list(
        visible.annotate(_upper=Upper("identifier"))
        .filter(Q(pk__in=json_values(pks, integers=True)) | Q(_upper__in=json_values(keys, integers=False)))
        .select_related("parcel")
        .order_by("identifier", "pk")
    )
    by_pk = {device.pk: device for device in found}
    by_key: dict = {}
    for device in found:
        by_key.setdefault(device.identifier.upper(), device)
    for submission in submissions:  # the first look-up of a key wins, as in the row path
        value = submission.device
        if isinstance(value, GreaseControlDevice):
            cache.setdefault(value.identifier.upper(), by_pk.get(value.pk))
        elif _text(value):
            cache.setdefault(_text(value).upper(), by_key.get(_text(value).upper()))
    return list(by_pk.values())


def _served(devices, cache: dict, *, listed: bool) -> None:
    # One establishment a link, with its device's id beside it: not the link and the establishment
    # (two model instances a row), as ``select_related`` over the through table would build.
    served = defaultdict(list)
    for fse in FoodServiceEstablishment.objects.annotate(_device_id=F("devices__id")).filter(
        _device_id__in=json_values([d.pk for d in devices], integers=True)
    ):
        served[fse._device_id].append(fse)
    for device in devices:
        cache[("establishments", device.pk)] = sorted(
            served[device.pk], key=lambda f: (f.business_name, f.pk)
        )
    if not listed:
        return
    hauler_links = FoodServiceEstablishment.haulers.through.objects.filter(
        foodserviceestablishment_id__in=json_values(
            {f.pk for fses in served.values() for f in fses}, integers=True
        )
    ).select_related("haulercompany")
    haulers_of = defaultdict(dict)
    for link in hauler_links:
        haulers_of[link.foodserviceestablishment_id][link.haulercompany_id] = link.haulercompany
    for device in devices:
        companies = {pk: c for fse in served[device.pk] for pk, c in haulers_of[fse.pk].items()}
        cache[("listed_haulers", device.pk)] = sorted(companies.values(), key=lambda c: (c.name, c.pk))


def _registered(texts: set[str], cache: dict) -> list[HaulerCompany]:
    digits = {int(t) for t in texts if t.isdigit()}
    names = {t.upper() for t in texts if not t.isdigit()}
    found = list(
        HaulerCompany.objects.annotate(_upper=Upper("name"))
        .filter(Q(pk__in=digits) | Q(_upper__in=names))
        .order_by("name", "pk")
    )
    for text in texts:
        if text.isdigit():
            match = next((c for c in found if c.pk == int(text)), None)
        else:
            match = next((c for c in found if c.name.upper() == text.upper()), None)
        cache[("hauler", text.lower())] = match
    return found


def _facilities(submissions, cache: dict) -> None:
    texts = {
        _text(s.receiving_facility)
        for s in submissions
        if s.receiving_facility not in (None, "") and not isinstance(s.receiving_facility, ReceivingFacility)
    }
    if not texts:
        return
    digits = {int(t) for t in texts if t.isdigit()}
    names = {t.upper() for t in texts if not t.isdigit()}
    found = list(
        ReceivingFacility.objects.annotate(_upper=Upper("name"))
        .filter(Q(pk__in=digits) | Q(_upper__in=names))
        .order_by("name", "pk")
    )
    for text in texts:
        if text.isdigit():
            match = next((f for f in found if f.pk == int(text)), None)
        else:
            match = next((f for f in found if f.name.upper() == text.upper()), None)
        cache[("facility", text.lower())] = match


def _window(queryset, partition: str, order: list, limit: int):
    return queryset.annotate(_row=Window(RowNumber(), partition_by=[F(partition)], order_by=order)).filter(
        _row__lte=limit
    )


def chunk_reads(submissions, *, acting_user, ctx: ProgramContext) -> ChunkReads:
    """Everything the chunk's rows need, in a fixed number of queries (module docstring)."""
    cache: dict = {}
    devices = _devices(submissions, acting_user, cache)
    role = getattr(acting_user, "role", None)
    staff = is_job(acting_user) or acting_user.is_program_staff
    _served(devices, cache, listed=role != Role.HAULER and not staff)
    haulers: list[HaulerCompany] = []
    if role == Role.HAULER:
        cache["hauler_companies"] = haulers = list(acting_user.hauler_companies.all())
    else:
        texts = {
            _text(s.hauler)
            for s in submissions
            if s.hauler not in (None, "") and not isinstance(s.hauler, HaulerCompany)
        }
        haulers = [s.hauler for s in submissions if isinstance(s.hauler, HaulerCompany)]
        if texts:
            haulers += _registered(texts, cache)
        haulers += [c for key, listed in cache.items() if key[0] == "listed_haulers" for c in listed]
    hauler_ids = {c.pk for c in haulers}
    plates = {_text(s.vehicle_plate).upper() for s in submissions if _text(s.vehicle_plate)}
    if plates and hauler_ids:
        vehicles = {}
        for vehicle in (
            HaulerVehicle.objects.annotate(_upper=Upper("plate"))
            .filter(hauler_id__in=hauler_ids, _upper__in=plates)
            .order_by("hauler", "plate", "pk")
        ):
            vehicles.setdefault((vehicle.hauler_id, vehicle.plate.upper()), vehicle)
        for hauler_id in hauler_ids:
            for plate in plates:
                cache[("vehicle", hauler_id, plate)] = vehicles.get((hauler_id, plate))
    _facilities(submissions, cache)

    numbers: dict = {}
    wanted = {_text(s.manifest_number) for s in submissions if _text(s.manifest_number)}
    if wanted and hauler_ids:
        for hauler_id, number, attested in Manifest.objects.filter(
            hauler_id__in=hauler_ids, manifest_number__in=json_values(wanted, integers=False)
        ).values_list("hauler_id", "manifest_number", "hauler_attested"):
            numbers[(hauler_id, number)] = numbers.get((hauler_id, number), False) or attested

    ids = [d.pk for d in devices]
    today = ctx.today()
    manifests, readings, requirements = defaultdict(list), defaultdict(list), defaultdict(list)
    if ids:
        for manifest in _window(
            Manifest.objects.effective().filter(
                device_id__in=json_values(ids, integers=True), service_date__lte=today
            ),
            "device_id",
            [F("serviced_at").desc(), F("pk").desc()],
            HISTORY_MANIFESTS,
        ).values_list(  # named rows, not model instances: the window is read, never saved
            "pk",
            "device_id",
            "service_date",
            "serviced_at",
            "full_pumpout",
            "fog_depth_in",
            "solids_depth_in",
            named=True,
        ):
            manifests[manifest.device_id].append(manifest)
        for reading in _window(
            SludgeReading.objects.filter(device_id__in=json_values(ids, integers=True), taken_on__lte=today),
            "device_id",
            [F("taken_on").desc(), F("pk").desc()],
            HISTORY_READINGS,
        ):
            readings[reading.device_id].append(reading)
        for requirement in ServiceRequirement.objects.filter(
            device_id__in=json_values(ids, integers=True), status=ServiceRequirement.Status.OPEN
        ):
            requirements[requirement.device_id].append(requirement)
        e8 = dict(
            DeviceServiceState.objects.filter(device_id__in=json_values(ids, integers=True)).values_list(
                "device_id", "e8_exception"
            )
        )
    else:
        e8 = {}
    for rows in manifests.values():
        rows.sort(key=lambda m: (m.serviced_at, m.pk), reverse=True)
    for rows in readings.values():
        rows.sort(key=lambda r: (r.taken_on, r.pk), reverse=True)
    return ChunkReads(
        cache=cache,
        numbers=numbers,
        manifests=manifests,
        readings=readings,
        requirements=requirements,
        e8_exceptions=e8,
        trucks=_trucks(submissions, plates, hauler_ids, ctx),
        hauler_ids=hauler_ids if wanted else set(),
    )


def _trucks(submissions, plates, hauler_ids, ctx: ProgramContext) -> list[Manifest]:
    """Effective manifests of the chunk's plates (any of its haulers, or none) within the widest
    conflict window of the chunk's dates around its earliest and latest service times."""
    moments = []
    for submission in submissions:
        moment = submission.serviced_at
        if moment is None or not _text(submission.vehicle_plate):
            continue
        if timezone.is_naive(moment):
            moment = timezone.make_aware(moment, ctx.zone())
        moments.append(moment)
    if not moments or not plates:
        return []
    minutes = max(ctx.ruleset(ctx.local_date(m)).manifest_vehicle_conflict_minutes for m in moments)
    window = dt.timedelta(minutes=minutes)
    return list(
        Manifest.objects.effective()
        .annotate(_upper=Upper("vehicle_plate"))
        .filter(Q(hauler_id__in=hauler_ids) | Q(hauler__isnull=True))
        .filter(
            _upper__in=plates, serviced_at__gt=min(moments) - window, serviced_at__lt=max(moments) + window
        )
        .only(
            "pk", "device_id", "hauler_id", "vehicle_plate", "serviced_at", "site_address", "manifest_number"
        )
        .order_by("serviced_at", "pk")
    )
