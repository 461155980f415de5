"""core.owed: the apps below billing ask "is anything owed?" without importing it (H3, Q2, B6)."""

import datetime as dt
from decimal import Decimal

import pytest

from fogcontrol.core import owed
from fogcontrol.core.owed import OwedAmount


@pytest.mark.provision("H3")
def test_h3_amounts_owed_gathers_every_provider_and_delinquent_amounts_filters_them(monkeypatch):
    monkeypatch.setattr(owed, "_providers", [])
    day = dt.date(2026, 11, 30)
    owed.register_owed_provider(
        lambda establishment_id, on: [OwedAmount("Invoice INV-1", Decimal("10.00"), "Q1")]
    )
    owed.register_owed_provider(
        lambda establishment_id, on: [OwedAmount("Invoice INV-2", Decimal("5.50"), "P8", True, day)]
    )
    assert owed.total(owed.amounts_owed(1, day)) == Decimal("15.50")
    assert [item.label for item in owed.delinquent_amounts(1, day)] == ["Invoice INV-2"]


def test_without_a_provider_nothing_is_owed(monkeypatch):
    monkeypatch.setattr(owed, "_providers", [])
    assert owed.amounts_owed(1, dt.date(2026, 11, 30)) == []
