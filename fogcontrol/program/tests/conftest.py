"""Fixtures for the program tests: a fixed "today" in the Town, and the users of the small town."""

import datetime as dt

import pytest

from fogcontrol.accounts.roles import Role

# Today, for these tests: the ruleset versioning proof needs versions both before and after it.
TODAY = dt.date(2026, 6, 15)


@pytest.fixture
def today(monkeypatch):
    """Fix the Town's today: services and selectors judge "past" and "future" versions by it."""
    monkeypatch.setattr("fogcontrol.program.selectors.town_today", lambda: TODAY)
    monkeypatch.setattr("fogcontrol.program.services.town_today", lambda: TODAY)
    return TODAY


@pytest.fixture
def manager(town):
    return town.users[Role.FOG_MANAGER]
