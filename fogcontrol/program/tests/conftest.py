"""Fixtures for the program tests: a fixed "today" in the Town, and the users of the small town."""

import datetime as dt
import types

import pytest

from fogcontrol.core.roles import Role

# Today, for these tests: the ruleset versioning proof needs versions both before and after it.
TODAY = dt.date(2026, 6, 15)


@pytest.fixture
def today(monkeypatch):
    """Fix the Town's today: services and selectors judge "past" and "future" versions by it.

    The clock under ``town_today`` is replaced, not ``town_today`` itself: a module that imports
    ``town_today`` for the first time during a test must not keep a fake for the rest of the run.
    """
    clock = types.SimpleNamespace(localdate=lambda timezone=None: TODAY)
    monkeypatch.setattr("fogcontrol.program.selectors.timezone", clock)
    return TODAY


@pytest.fixture
def manager(town):
    return town.users[Role.FOG_MANAGER]
