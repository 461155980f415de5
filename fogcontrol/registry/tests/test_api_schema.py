"""The registry API's OpenAPI schema: it generates, it is served with Swagger UI from the installed
package (no CDN), and the API answers what the schema allows without ever failing (no 500)."""

import contextlib

import schemathesis
from django.core import signals
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, given, settings
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import response_schema_conformance

from fogcontrol.core.roles import Role
from fogcontrol.testing import factories
from fogcontrol.wsgi import application

REGISTRY_PATHS = [
    "/api/v1/establishments/",
    "/api/v1/establishments/{id}/",
    "/api/v1/devices/",
    "/api/v1/devices/{id}/",
    "/api/v1/parcels/",
    "/api/v1/parcels/{id}/",
    "/api/v1/haulers/",
    "/api/v1/haulers/{id}/vehicles/",
    "/api/v1/parties/",
    "/api/v1/facilities/",
]


def test_the_schema_documents_every_registry_endpoint(db):
    response = Client().get("/api/v1/schema/", HTTP_ACCEPT="application/json")

    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in REGISTRY_PATHS + ["/api/v1/auth/token/", "/api/v1/establishments/{id}/close/"]:
        assert path in paths, path
    assert set(paths["/api/v1/establishments/"]) == {"get", "post"}
    assert "delete" not in paths["/api/v1/establishments/{id}/"]
    device = response.json()["components"]["schemas"]["Device"]["properties"]
    assert {"a4_flags", "responsible", "establishments_served"} <= set(device)


def test_swagger_ui_is_served_without_a_cdn(db):
    response = Client().get("/api/v1/docs/")

    assert response.status_code == 200
    page = response.content.decode()
    assert "swagger-ui" in page
    assert "cdn." not in page and "unpkg" not in page and "jsdelivr" not in page


@contextlib.contextmanager
def connection_kept_open():
    """Schemathesis calls the WSGI application itself, which closes the database connection at
    the end of each request; that would end the test's transaction (on PostgreSQL). Keep it
    open, as Django's own test client does."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


def _operations(schema):
    for result in schema.get_all_operations():
        yield result.ok()  # an operation the schema cannot describe fails the test here


def test_registry_api_never_fails_and_matches_its_schema(town):
    """Schemathesis, bounded to run in seconds: GET on the registry paths and POST on
    establishments, 10 examples each (valid input, and invalid input for the POST), as the
    FOG Manager through a token. No answer may be a server error, and every success must match
    the documented response schema."""
    factories.ReceivingFacilityFactory()
    factories.HaulerVehicleFactory(hauler=town.hauler)
    headers = {"Authorization": f"Token {Token.objects.create(user=town.users[Role.FOG_MANAGER]).key}"}
    with connection_kept_open():
        _run_schemathesis(headers)


def _run_schemathesis(headers):
    schema = schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", application)
    gets = list(_operations(schema.include(path=REGISTRY_PATHS, method="GET")))
    posts = list(_operations(schema.include(path="/api/v1/establishments/", method="POST")))
    assert len(gets) == len(REGISTRY_PATHS) and len(posts) == 1
    runs = [(operation, GenerationMode.POSITIVE) for operation in gets + posts]
    runs.append((posts[0], GenerationMode.NEGATIVE))

    for operation, mode in runs:

        @given(case=operation.as_strategy(generation_mode=mode))
        @settings(
            max_examples=10,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        )
        def check(case):
            response = case.call(headers=headers)
            assert response.status_code < 500, f"{case.method} {case.formatted_path}: {response.text[:500]}"
            if response.status_code in (200, 201):
                case.validate_response(response, checks=[response_schema_conformance])

        check()
