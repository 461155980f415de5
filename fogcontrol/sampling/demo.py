"""Demo sampling (D5, D6, D7): FOG limits in a few permits' conditions, samples with their chain of
custody and lab results (one over its limit, so a finding), monitoring facilities (one installed,
one overdue: a finding from the sweep) and Specialty FOG Compliance Charges (D6). Called by
``fogcontrol.demo`` (``seed(*, rng, town, today)``) after the inspections seeder; every record goes
through the services, so judgements, findings and prices are what the rules make of them. A handful
of records: fast."""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal
from zoneinfo import ZoneInfo

from fogcontrol.inspections.models import Inspection
from fogcontrol.inspections.services import compliance_charge_record
from fogcontrol.sampling.services import (
    custody_add,
    facilities_overdue_sweep,
    facility_installed,
    facility_require,
    limit_set,
    results_record,
    sample_charge,
    sample_record,
)

ACTING = "seed_demo"
LAB = "Bay Analytical Laboratory"
SAMPLER = "Ines Inspector"


def _sample(rng, *, establishment, when, inspection, fog: str, tss: str):
    device = establishment.devices.first()
    sample = sample_record(
        establishment=establishment,
        device=device,
        inspection=inspection,
        kind=rng.choice(["grab", "grab", "composite"]),
        sampled_at=when,
        sampled_by=SAMPLER,
        sample_point=f"Sample tee downstream of {device.identifier}" if device else "Lateral cleanout",
        container="1 L amber glass",
        preservation="HCl to pH<2, on ice at 4 °C",
        laboratory=LAB,
        lab_sample_id=f"BA-{when:%y%m%d}-{rng.randint(100, 999)}",
        acting_user=ACTING,
    )
    custody_add(
        sample=sample, released_by=SAMPLER, received_by="Courier (Bay Express)",
        at=when + dt.timedelta(hours=2), condition="on ice, 4 °C", acting_user=ACTING,
    )  # fmt: skip
    custody_add(
        sample=sample, released_by="Courier (Bay Express)", received_by=LAB,
        at=when + dt.timedelta(hours=4), condition="on ice, 3 °C", acting_user=ACTING,
    )  # fmt: skip
    analysed = (when + dt.timedelta(days=2)).date()
    results_record(
        sample=sample,
        rows=[
            {"analyte": "fog", "value": fog, "unit": "mg/L", "method": "EPA 1664B", "analysed_on": analysed},
            {"analyte": "tss", "value": tss, "unit": "mg/L", "method": "SM 2540D", "analysed_on": analysed},
        ],
        acting_user=ACTING,
    )
    return sample


def seed(*, rng: random.Random, town, today: dt.date) -> None:
    """Limits, samples, facilities and charges for a few establishments (see the module docstring)."""
    zone = ZoneInfo(town.profile.time_zone)
    visited = list(
        Inspection.objects.filter(
            status=Inspection.Status.COMPLETED, visited_on__lte=today - dt.timedelta(days=5)
        )
        .select_related("establishment")
        .order_by("-visited_on", "pk")[:40]
    )
    if town.fse_establishment is not None:
        own = [i for i in visited if i.establishment_id == town.fse_establishment.pk]
        visited = own[:1] + [i for i in visited if i not in own]
    chosen, seen = [], set()
    for inspection in visited:  # one visit per establishment (a follow-up shares its establishment)
        if inspection.establishment_id not in seen and len(chosen) < 4:
            seen.add(inspection.establishment_id)
            chosen.append(inspection)
    if not chosen:
        return
    for inspection in chosen:
        limit_set(
            establishment=inspection.establishment,
            analyte="fog",
            unit="mg/L",
            max_value=Decimal("100"),
            effective_from=dt.date(2023, 3, 30),
            condition="FOG in the discharge to the public sewer shall not exceed 100 mg/L (permit condition 7)",
            acting_user=ACTING,
        )
    for index, inspection in enumerate(chosen):
        when = dt.datetime.combine(inspection.visited_on, dt.time(10, 30), tzinfo=zone)
        over = index == 0
        fog = str(rng.randint(160, 260)) if over else str(rng.randint(18, 85))
        sample = _sample(
            rng, establishment=inspection.establishment, when=when, inspection=inspection,
            fog=fog, tss=str(rng.randint(120, 400)),
        )  # fmt: skip
        if over:
            sample_charge(
                sample=sample, kind="sampling", quantity=1, incurred_on=inspection.visited_on,
                reason="Sampling after FOG over the permit limit", acting_user=ACTING,
            )  # fmt: skip
            sample_charge(
                sample=sample, kind="lab_analysis", quantity=2, incurred_on=inspection.visited_on + dt.timedelta(days=2),
                reason="FOG and TSS analysis of the over-limit sample", acting_user=ACTING,
            )  # fmt: skip
    follow_ups = Inspection.objects.filter(kind=Inspection.Kind.FOLLOW_UP, status=Inspection.Status.COMPLETED)
    for follow_up in follow_ups.select_related("establishment").order_by("pk")[:2]:
        compliance_charge_record(
            establishment=follow_up.establishment, kind="follow_up_inspection", quantity=Decimal("1.5"),
            incurred_on=follow_up.visited_on, inspection=follow_up,
            reason="Follow-up inspection of the findings of the routine visit", acting_user=ACTING,
        )  # fmt: skip
    first, second = chosen[0].establishment, chosen[-1].establishment
    facility_require(
        establishment=first, kind="sampling", location="Rear service yard, downstream of the interceptor",
        description="A sampling box on the lateral, so the discharge can be sampled without entering the kitchen",
        required_on=today - dt.timedelta(days=150), acting_user=ACTING,
    )  # fmt: skip
    installed = facility_require(
        establishment=second, kind="flow_monitoring", location="Vault at the property line",
        description="A flow meter on the building sewer", required_on=today - dt.timedelta(days=120), acting_user=ACTING,
    )  # fmt: skip
    facility_installed(facility=installed, installed_on=today - dt.timedelta(days=40), acting_user=ACTING)
    facility_require(
        establishment=second, kind="metering", location="Water service entrance",
        description="A sub-meter on the kitchen's water supply", required_on=today - dt.timedelta(days=10),
        acting_user=ACTING,
    )  # fmt: skip
    facilities_overdue_sweep(today=today, acting_user=ACTING)
