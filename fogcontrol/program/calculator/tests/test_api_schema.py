"""The rules API in the OpenAPI docs, and under generated input (schemathesis): never a 500.

The generated runs are kept small (a few dozen examples each) so the suite stays quick; the worked
examples and the named 400 cases are in the other test modules.
"""

import contextlib

import pytest
import schemathesis
from django.core import signals
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from django.urls import include, path
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance, status_code_conformance

from conftest import api_as
from fogcontrol.core.roles import Role

pytestmark = pytest.mark.django_db

# Only the rules endpoints: the schema is generated from their URL patterns alone.
RULES_URLS = [path("api/v1/", include("fogcontrol.program.calculator.api_urls"))]


CHECKS = [not_a_server_error, status_code_conformance, response_schema_conformance]


@contextlib.contextmanager
def database_connection_kept_open():
    """Schemathesis calls the WSGI application directly, and Django closes the database connection
    when a request ends: on PostgreSQL that would end the test's transaction. Keep it open, as
    Django's own test client does."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


def rules_schema():
    document = SchemaGenerator(patterns=RULES_URLS).get_schema(request=None, public=True)
    return schemathesis.openapi.from_dict(document)


def test_the_api_docs_show_each_rules_endpoint_with_its_fields(town):
    client = api_as(town.users[Role.FSE])

    schema = client.get("/api/v1/schema/", {"format": "json"}).json()

    paths = schema["paths"]
    assert paths["/api/v1/rules/deadlines/"]["get"]["summary"] == "The deadline rules"
    compute = paths["/api/v1/rules/deadlines/{provision}/"]["get"]
    parameters = {parameter["name"]: parameter for parameter in compute["parameters"]}
    assert parameters["start"]["required"] is True
    assert "L2" in parameters["provision"]["schema"]["enum"]
    assert {"200", "400", "404"} <= set(compute["responses"])
    components = schema["components"]["schemas"]
    assert {
        "due",
        "earliest",
        "earliest_business_day",
        "latest",
        "lapses_on",
        "ruleset_version",
        "explanation",
    } <= set(components["RulesDeadline"]["properties"])
    frequency = paths["/api/v1/rules/frequency/"]["post"]
    assert frequency["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith(
        "/RulesFrequencyRequest"
    )
    assert set(components["RulesFrequencyRequest"]["properties"]) == {
        "kind",
        "total_depth_in",
        "observations",
        "as_of",
    }
    assert set(components["RulesObservationRequest"]["properties"]) == {
        "days_since_pumpout",
        "fog_depth_in",
        "solids_depth_in",
    }
    assert {"recommended_frequency_days", "fill_ratio", "enough_data", "projected_fill_by_frequency"} <= set(
        components["RulesFrequencyRecommendation"]["properties"]
    )
    assert set(components["RulesPenaltyRequest"]["properties"]) == {
        "kind",
        "days",
        "occurrences",
        "under_order",
        "judicially_recovered",
        "as_of",
    }
    assert {"max_amount", "factors", "explanation"} <= set(components["RulesPenaltyCap"]["properties"])


def test_the_fuzzed_schema_holds_the_four_rules_operations():
    schema = rules_schema()
    assert sorted(schema.raw_schema["paths"]) == [
        "/api/v1/rules/deadlines/",
        "/api/v1/rules/deadlines/{provision}/",
        "/api/v1/rules/frequency/",
        "/api/v1/rules/penalty/",
    ]


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=["valid", "invalid"])
def test_rules_api_never_answers_with_a_server_error(town, mode):
    token = Token.objects.create(user=town.users[Role.FSE])
    app = get_wsgi_application()
    headers = {"Authorization": f"Token {token.key}"}

    @settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(case=rules_schema().as_strategy(generation_mode=mode))
    def check(case):
        response = case.call(app=app, headers=headers)
        assert response.status_code < 500, case.as_curl_command(headers=headers)
        # Every answer is one the schema documents, in the documented shape.
        case.validate_response(response, checks=CHECKS)

    with database_connection_kept_open():
        check()
