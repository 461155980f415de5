"""Shared test helpers for sampling: a fee schedule with the D6 rates, a sample, a limit."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from fogcontrol.permits.models import FeeKind
from fogcontrol.permits.tests.factories import FEES, fee_schedule
from fogcontrol.program.selectors import town_today, town_zone
from fogcontrol.sampling.models import Analyte, Unit
from fogcontrol.sampling.services import limit_set, sample_record

D6_RATES = {
    FeeKind.FOLLOW_UP_INSPECTION: Decimal("95.00"),
    FeeKind.SAMPLING: Decimal("60.00"),
    FeeKind.LAB_ANALYSIS: Decimal("42.50"),
    FeeKind.STAFF_TIME: Decimal("75.00"),
}


def schedule_with_rates(effective_from=dt.date(2023, 3, 30), **rates):
    """A fee schedule with the permit fees and the D6 rates (override one: ``sampling=Decimal(...)``)."""
    amounts = {**FEES, **D6_RATES, **{FeeKind(kind): amount for kind, amount in rates.items()}}
    return fee_schedule(effective_from=effective_from, amounts=amounts)


def at(day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=town_zone())


def sample_of(establishment, user, *, day: dt.date | None = None, hour: int = 9, **kwargs):
    day = day or town_today() - dt.timedelta(days=3)
    values = {
        "kind": "grab",
        "sampled_at": at(day, hour),
        "sampled_by": "Ines Inspector",
        "sample_point": "Sample tee, GI-1",
        "container": "1 L amber glass",
        "preservation": "HCl to pH<2, on ice",
        "laboratory": "Bay Analytical",
    }
    values.update(kwargs)
    return sample_record(establishment=establishment, acting_user=user, **values)


def fog_limit(establishment, user, *, max_value="100", effective_from=dt.date(2024, 1, 1), **kwargs):
    kwargs.setdefault("analyte", Analyte.FOG)
    kwargs.setdefault("unit", Unit.MG_L)
    return limit_set(
        establishment=establishment,
        max_value=Decimal(max_value),
        effective_from=effective_from,
        condition=kwargs.pop("condition", "FOG in the discharge shall not exceed 100 mg/L"),
        acting_user=user,
        **kwargs,
    )


def fog_row(value: str, **changes) -> dict:
    row = {
        "analyte": "fog",
        "value": value,
        "unit": "mg/L",
        "method": "EPA 1664B",
        "analysed_on": (town_today() - dt.timedelta(days=1)).isoformat(),
        "reported_by": "Bay Analytical",
    }
    row.update(changes)
    return row
