import datetime as dt

import pytest

from fogcontrol.core.roles import Role
from fogcontrol.notices import catalogue
from fogcontrol.notices.models import DocumentTemplate
from fogcontrol.program.selectors import town_today


@pytest.fixture
def manager(town):
    return town.users[Role.FOG_MANAGER]


@pytest.fixture
def cited_notice():
    """A document citing provisions, registered for one test."""
    registration = catalogue.register(
        "test_cited_notice",
        title="Notice to {business_name}",
        provisions=("C1", "P3"),
        placeholders={"business_name": "The business name."},
        default_body="Dear {business_name},\n\nYou broke a rule.",
    )
    yield registration
    catalogue._REGISTRY.pop(registration.key, None)


@pytest.fixture
def today():
    return town_today()


def days_ago(days: int) -> dt.date:
    return town_today() - dt.timedelta(days=days)


def adopted_version(
    key: str, version: int, *, body: str, title: str = "Letter to {business_name}", days: int
):
    """A version adopted earlier (in force since ``days`` ago), as the Town would have left it."""
    return DocumentTemplate.objects.create(
        key=key,
        version=version,
        title=title,
        body=body,
        effective_from=days_ago(days),
        adopted_by=f"Res. 2026-{version}",
    )
