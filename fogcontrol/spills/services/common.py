"""What the spill services share: the State's category and the FOG finding of a linked SSO."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from fogcontrol.findings.models import Finding
from fogcontrol.findings.services import finding_open
from fogcontrol.program.selectors import town_today, town_zone
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.rules import spills as rules
from fogcontrol.spills.models import Spill


def derive_category(spill: Spill) -> rules.CategoryResult:
    """The State's category from the spill's volumes and destination (WQ 2022-0103-DWQ)."""
    return rules.spill_category(
        volume_spilled=spill.volume_spilled,
        volume_reached_surface_water=spill.volume_reached_surface_water,
        destination=spill.destination,
        storm_drain_fully_recovered=spill.storm_drain_fully_recovered,
    )


def spill_day(spill: Spill) -> dt.date:
    """The Town date the spill began (today when unknown)."""
    if spill.started_at is None:
        return town_today()
    return timezone.localtime(spill.started_at, town_zone()).date()


def sso_finding_item(spill_id: int) -> str:
    """What a FOG-caused spill's finding names, so one spill opens one finding per FSE."""
    return f"spill {spill_id}"


def open_fog_finding(*, spill: Spill, establishment: FoodServiceEstablishment, acting_user) -> Finding | None:
    """A FOG-caused spill linked to an FSE is a finding against it (I1; L1: causing a blockage or
    SSO), which enforcement can turn into a violation. Once per spill and FSE."""
    if not spill.fog_caused:
        return None
    item = sso_finding_item(spill.pk)
    if Finding.objects.filter(
        source=Finding.Source.SPILL, source_id=spill.pk, establishment=establishment, item=item
    ).exists():
        return None
    volume = f"{spill.volume_spilled:,} gallons" if spill.volume_spilled is not None else "an unknown volume"
    return finding_open(
        establishment=establishment,
        provision="I1",
        item=item,
        description=(
            f"{spill.get_kind_display()} at {spill.address or spill.location_name or 'an unrecorded place'}"
            f" caused by grease deposition (FOG), {volume}, {rules.CATEGORY_LABELS[spill.category]}: "
            "an FSE that contributed to a blockage or SSO answers for it (I1, I2, L1)."
        ),
        began_on=spill_day(spill),
        source=Finding.Source.SPILL,
        source_id=spill.pk,
        acting_user=acting_user,
    )
