"""Judging a manifest: its E6/E8 consequences and its review flags, one function for every path.

Three paths store manifests: ``manifest_submit`` (one at a time, the facts looked up by query),
the set-based ingest (``ingest.py``, the CSV import and the API batch) and the history batch
(``history.py``, the demo town), the last two from the facts they hold in memory. Each gathers the
device's verdict (its frequency, the recommendation, any E8 exception) and the facts the flags are
judged by, then calls ``manifest_judge``, so the rules a manifest meets are the same whichever way
it arrives (E1, E3, E6, E7, E8, F7).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal

from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.rules.frequency import FrequencyRecommendation
from fogcontrol.rules.maintenance import ReadingConsequences
from fogcontrol.rules.servicing_rules import Flag
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.models import Manifest, SludgeReading
from fogcontrol.servicing.services.manifest_flags import flags_from_facts, without_repeated_e8
from fogcontrol.servicing.services.state import consequences_for


@dataclasses.dataclass(frozen=True)
class ManifestFacts:
    """What the flags are judged by beside the manifest (``review_facts`` looks them up): another
    effective manifest of the same truck at another device within the conflict window (the
    earliest), the last full pump-out before this one, the latest reading over the limit since."""

    conflict: Manifest | None = None
    previous_full_pumpout_on: dt.date | None = None
    over_limit_reading: SludgeReading | None = None


@dataclasses.dataclass(frozen=True)
class ManifestJudgement:
    consequences: ReadingConsequences
    flags: list[Flag]


def manifest_judge(
    manifest: Manifest,
    *,
    device: GreaseControlDevice,
    frequency_days: int | None,
    recommendation: FrequencyRecommendation | None,
    e8_exception: str,
    ratio: Decimal | None,
    facts: ManifestFacts,
    e8_already_open: bool,
    ctx: ProgramContext,
) -> ManifestJudgement:
    """The E6/E8 consequences of ``manifest`` (``consequences_for``) and its review flags
    (``flags_from_facts``; E8 flagged only on the manifest that opens the requirement)."""
    consequences = consequences_for(
        device=device,
        frequency_days=frequency_days,
        recommendation=recommendation,
        e8_exception=e8_exception,
        ratio=ratio,
        gallons_removed=manifest.gallons_removed,
        on=manifest.service_date,
        ctx=ctx,
    )
    flags = flags_from_facts(
        manifest,
        device=device,
        ruleset=ctx.ruleset(manifest.service_date),
        consequences=consequences,
        conflict=facts.conflict,
        previous_full_pumpout_on=facts.previous_full_pumpout_on,
        over_limit_reading=facts.over_limit_reading,
    )
    return ManifestJudgement(
        consequences=consequences, flags=without_repeated_e8(flags, e8_already_open=e8_already_open)
    )


def review_facts(manifest: Manifest, *, ctx: ProgramContext) -> ManifestFacts:
    """The facts of ``ManifestFacts`` for a stored manifest, from the database (three queries at most)."""
    device = manifest.device
    ruleset = ctx.ruleset(manifest.service_date)
    conflict = None
    if manifest.vehicle_plate:
        window = dt.timedelta(minutes=ruleset.manifest_vehicle_conflict_minutes)
        conflict = (
            Manifest.objects.effective()
            .filter(
                vehicle_plate__iexact=manifest.vehicle_plate,
                hauler=manifest.hauler,
                serviced_at__gt=manifest.serviced_at - window,
                serviced_at__lt=manifest.serviced_at + window,
            )
            .exclude(device=device)
            .exclude(pk=manifest.pk)
            .exclude(pk=manifest.corrects_id or 0)
            .order_by("serviced_at")
            .first()
        )
    previous = (
        Manifest.objects.effective()
        .filter(device=device, full_pumpout=True, service_date__lt=manifest.service_date)
        .exclude(pk=manifest.pk)
        .order_by("-service_date")
        .values_list("service_date", flat=True)
        .first()
    )
    over = (
        SludgeReading.objects.filter(
            device=device, taken_on__lte=manifest.service_date, fill_ratio__gt=ruleset.fill_limit_ratio
        )
        .filter(**({"taken_on__gt": previous} if previous else {}))
        .order_by("-taken_on")
        .first()
    )
    return ManifestFacts(conflict=conflict, previous_full_pumpout_on=previous, over_limit_reading=over)
