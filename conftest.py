"""Fixtures shared by every app's tests: one user per role, bound to a small town."""

import pytest
from django.core.cache import cache
from django.test import Client
from hypothesis import HealthCheck, settings
from rest_framework.test import APIClient

from fogcontrol.testing.auth import force_login_verified
from fogcontrol.testing.town import SmallTown, build_small_town

# Property tests judge the rules, not the machine: on a loaded 2-core CI machine a draw that touches
# the database can take seconds, which is no failure of the property.
settings.register_profile("fogcontrol", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("fogcontrol")


@pytest.fixture
def town(db) -> SmallTown:
    return build_small_town()


@pytest.fixture
def api_client():
    return APIClient()


def api_as(user) -> APIClient:
    """An API client acting as `user` (no session: as a program with a token)."""
    client = APIClient()
    client.force_authenticate(user)
    return client


def api_signed_in(user) -> APIClient:
    """An API client with `user`'s session, signed in with the second factor just now
    (fogcontrol.testing.auth): what staff signing for a party through the API need (core/fresh_auth.py)."""
    client = APIClient()
    client.force_login(user)
    return client


@pytest.fixture(autouse=True)
def _forced_logins_pass_the_second_factor(monkeypatch):
    """A test's `force_login` stands for a complete sign-in: password and second factor, just now.
    Explicit and test-only (fogcontrol/testing/auth.py); tests of the second factor itself use
    `force_login_pending`."""
    monkeypatch.setattr(Client, "force_login", force_login_verified)


@pytest.fixture(autouse=True)
def _empty_cache():
    """Rate-limit counters (password pages, DRF throttles) live in the cache: one test's count must
    not spill into the next."""
    cache.clear()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Tests create many users; the production hasher's deliberate slowness buys nothing here."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _language_reset():
    """A request through the test client leaves its language active in the thread (LocaleMiddleware
    activates it and nothing deactivates it), so a test run after a Spanish page would render in
    Spanish. Each test starts, and leaves, in the default language."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_content_type_cache():
    """A transactional test with serialized rollback empties and refills django_content_type under
    new ids; a ContentType cached by an earlier test would then point at a row that is gone."""
    from django.contrib.contenttypes.models import ContentType

    ContentType.objects.clear_cache()


_COPYING_TESTS = ("test_kill_durability", "test_tasks_on_rq", "test_several_processes")


def pytest_collection_modifyitems(items):
    """Every transactional test rolls back by serialization (issue 15's kill test found why).

    A transactional test ends with a flush. Without serialized rollback, Django then runs
    post_migrate, which creates the content types again under new ids and leaves the data
    migrations' rows (the Town's holidays, the adopted ruleset) gone; a later test with serialized
    rollback then fails to restore its copy ("UNIQUE constraint failed: django_content_type"), and a
    later plain test runs without the holidays. With serialized rollback everywhere, each
    transactional test starts from, and leaves, the database as the migrations made it."""
    # Among the transactional tests (pytest-django has already put them together, after the
    # others that use the database), those that need the migrations' data restored run first,
    # then the rest, the browser tests and journeys last: a test with threads of its own or a live server can
    # still commit after its flush (content types made again under other ids), and a serialized
    # test after it could not restore its copy. Only the order inside that group changes.
    places = [index for index, item in enumerate(items) if _transactional(item)]
    # The kill tests and the tests of several processes copy the test database as a PostgreSQL
    # template, refused while another session is on it: they go first, before the backup tests'
    # processes have touched it.
    ordered = sorted((items[index] for index in places), key=lambda item: (
        "/browser/" in str(item.path) or "/journeys/" in str(item.path), not _needs_the_migrations_data(item),
        not any(name in str(item.path) for name in _COPYING_TESTS)))  # fmt: skip
    for index, item in zip(places, ordered, strict=True):
        items[index] = item
    for item in items:
        marker = item.get_closest_marker("django_db")
        if (
            marker is not None
            and marker.kwargs.get("transaction")
            and "serialized_rollback" not in marker.kwargs
        ):
            item.add_marker(pytest.mark.django_db(**marker.kwargs, serialized_rollback=True))


_TRANSACTIONAL_FIXTURES = (
    "transactional_db",
    "live_server",
    "django_db_serialized_rollback",
    "django_db_reset_sequences",
)


def _transactional(item) -> bool:
    marker = item.get_closest_marker("django_db")
    fixtures = getattr(item, "fixturenames", ())
    return bool(marker is not None and marker.kwargs.get("transaction")) or any(
        name in fixtures for name in _TRANSACTIONAL_FIXTURES
    )


def _needs_the_migrations_data(item) -> bool:
    marker = item.get_closest_marker("django_db")
    return bool(marker is not None and marker.kwargs.get("serialized_rollback")) or (
        "django_db_serialized_rollback" in getattr(item, "fixturenames", ())
    )
