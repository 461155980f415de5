"""Schemathesis over the whole API (issue 15): every operation of the live OpenAPI schema, called
in-process through the WSGI application, as a FOG Manager, an FSE and a hauler, each through an
API token, on a small demo town (`seed_demo`, 20 establishments) so that paths with ids hit real
records. Every answer must be no server error, a status code the operation documents, with the
documented content type and a body that matches the documented schema.

Bounded for `make test`: a fixed seed, a few examples per operation and role, no shrinking.
Deeper runs locally (docs/security.md, "The API under generated input"):

    FOGCONTROL_FUZZ_EXAMPLES=200 FOGCONTROL_FUZZ_SEED=7 .venv/bin/python -m pytest tests/test_api_fuzz.py -q

The operations are read from the schema drf-spectacular generates at collection time, so an
endpoint added anywhere is fuzzed without touching this file.
"""

from __future__ import annotations

import contextlib
import os

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, transaction
from django.test import override_settings
from django.urls import Resolver404, resolve
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from rest_framework.authtoken.models import Token
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from fogcontrol.testing.town import FAST_HASHERS

# How many generated requests per operation and role; the seed that draws them.
EXAMPLES = int(os.environ.get("FOGCONTROL_FUZZ_EXAMPLES", "4"))
SEED = int(os.environ.get("FOGCONTROL_FUZZ_SEED", "15"))
# Shrinking a failure to its smallest example is worth it only when looking for one.
SHRINK = os.environ.get("FOGCONTROL_FUZZ_SHRINK") == "1"
# The demo logins the API is called as: a FOG Manager (staff), an FSE and a hauler.
ROLES = ("manager", "fse", "hauler")
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
METHODS = ("get", "post", "put", "patch", "delete")

DOCUMENT = SchemaGenerator().get_schema(request=None, public=True)
SCHEMA = schemathesis.openapi.from_dict(DOCUMENT)
OPERATIONS = [
    (method.upper(), path) for path, item in DOCUMENT["paths"].items() for method in item if method in METHODS
]


@contextlib.contextmanager
def _connection_kept_open():
    """The WSGI application closes the database connection when a request ends; on PostgreSQL that
    would end the test's transaction. Keep it open, as Django's test client does."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


@pytest.fixture(scope="module")
def demo_town(django_db_setup, django_db_blocker):
    """The demo town with 20 establishments, built once for this module inside a transaction that is
    rolled back at its end; each test runs in a savepoint within it (pytest-django), so what one
    operation writes is gone before the next."""
    from fogcontrol.demo.run import seed_demo

    django_db_blocker.unblock()
    atomic = transaction.atomic()
    atomic.__enter__()
    try:
        with override_settings(PASSWORD_HASHERS=FAST_HASHERS):
            town = seed_demo(establishments=20, seed=1).town
        tokens = {name: Token.objects.create(user=town.users[name]).key for name in ROLES}
    except BaseException:
        transaction.set_rollback(True)
        atomic.__exit__(None, None, None)
        django_db_blocker.restore()
        raise
    django_db_blocker.restore()
    yield {"town": town, "tokens": tokens}
    django_db_blocker.unblock()
    transaction.set_rollback(True)
    atomic.__exit__(None, None, None)
    django_db_blocker.restore()


def _model_of(path: str, user):
    """The model behind a path's `{id}`: what its view's queryset holds for this user."""
    concrete = path.replace("{id}", "1").replace("{key}", "k").replace("{provision}", "A1")
    try:
        match = resolve(concrete)
    except Resolver404:
        return None
    view_class = getattr(match.func, "cls", None)
    if view_class is None or not hasattr(view_class, "get_queryset"):
        # A plain view under a record's path (`/devices/{id}/compliance/`): the record's model.
        parent = path[: path.index("{id}") + len("{id}/")] if "{id}" in path else path
        return _model_of(parent, user) if parent != path else None
    view = view_class(**getattr(match.func, "initkwargs", {}))
    request = APIRequestFactory().get(concrete)
    request.user = user
    view.request, view.args, view.kwargs, view.format_kwarg = Request(request), (), match.kwargs, None
    view.request.user = user
    actions = getattr(match.func, "actions", None) or {}
    view.action = actions.get("get") or next(iter(actions.values()), None)
    with contextlib.suppress(Exception):
        return view.get_queryset().model
    meta = getattr(getattr(view_class, "serializer_class", None), "Meta", None)
    return getattr(meta, "model", None)


def real_ids(path: str, user) -> list[int]:
    """Ids of records the path's `{id}` names: a few the user may see, and a few of anyone's."""
    model = _model_of(path, user) if "{id}" in path else None
    if model is None:
        return []
    manager = model._default_manager
    ids = []
    if hasattr(manager, "visible_to"):
        ids += list(manager.visible_to(user, "view").order_by("pk").values_list("pk", flat=True)[:3])
    ids += list(manager.order_by("pk").values_list("pk", flat=True)[:2])
    ids += list(manager.order_by("-pk").values_list("pk", flat=True)[:1])
    return list(dict.fromkeys(ids))


def _takes_input(operation: dict) -> bool:
    """Invalid input needs somewhere to put it: a body, or a query or header parameter."""
    places = {parameter["in"] for parameter in operation.get("parameters", [])}
    return bool(operation.get("requestBody") or places & {"query", "header"})


def _fuzz(operation, mode, *, ids, headers, app):
    phases = [Phase.explicit, Phase.generate] + ([Phase.shrink] if SHRINK else [])
    ids_strategy = st.sampled_from(ids) if ids else st.none()

    @seed(SEED)
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        phases=phases,
        report_multiple_bugs=False,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode), real_id=ids_strategy, use_real=st.booleans())
    def check(case, real_id, use_real):
        if real_id is not None and (use_real or mode is GenerationMode.POSITIVE):
            case.path_parameters["id"] = real_id
        response = case.call(app=app, headers=headers)
        case.validate_response(response, checks=CHECKS)

    check()


@pytest.mark.django_db
@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_the_api_answers_every_operation_as_its_schema_says(demo_town, role, method, path):
    operation = SCHEMA[path][method]
    user = demo_town["town"].users[role]
    headers = {"Authorization": f"Token {demo_town['tokens'][role]}"}
    app = get_wsgi_application()
    ids = real_ids(path, user)
    with _connection_kept_open():
        _fuzz(operation, GenerationMode.POSITIVE, ids=ids, headers=headers, app=app)
        if role == "manager" and _takes_input(DOCUMENT["paths"][path][method.lower()]):
            _fuzz(operation, GenerationMode.NEGATIVE, ids=ids, headers=headers, app=app)


@pytest.mark.django_db
def test_the_fuzzed_paths_name_real_records(demo_town):
    """Most paths with an `{id}` find records of their kind in the demo town, so the generated
    requests reach real objects rather than only 404s."""
    manager = demo_town["town"].users["manager"]
    with_id = {path for _, path in OPERATIONS if "{id}" in path}
    without_records = sorted(path for path in with_id if not real_ids(path, manager))
    assert len(without_records) <= len(with_id) // 4, without_records
