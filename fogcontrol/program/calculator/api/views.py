"""The rules API (/api/v1/rules/): Chapter 10.02's deadlines, service frequency and penalty caps.

The ordinance is public, so any signed-in user may ask (token or session). The views only check
the request with a serializer and call ``fogcontrol.program.calculator.calculations``; refusals
are 400s naming the field (a ``ValidationError`` from the calculations goes through
``fogcontrol.core.api.errors.exception_handler``), an unknown rule is a 404 that lists the known ones.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.parsers import JSONParser
from rest_framework.response import Response
from rest_framework.views import APIView

from fogcontrol.program.calculator import calculations
from fogcontrol.program.calculator.api import serializers
from fogcontrol.program.selectors import town_today
from fogcontrol.rules.deadlines import UnknownProvision

TAGS = ["rules"]
BAD_INPUT = OpenApiResponse(
    OpenApiTypes.OBJECT,
    description="Bad input: each field in error maps to a list of messages saying how to fix it, "
    'e.g. {"start": ["Not a date on the calendar. Give the date as YYYY-MM-DD, e.g. 2026-06-18."]}.',
)
NOT_SIGNED_IN = OpenApiResponse(description="Not signed in: send a token or a session cookie.")


class DeadlineRuleListView(APIView):
    """Every deadline of Chapter 10.02 the calculator counts (Counting days)."""

    filter_backends: list = []

    @extend_schema(
        tags=TAGS,
        operation_id="rules_deadlines_list",
        summary="The deadline rules",
        description="Each rule's key (slug), the provisions it carries, its title and what its start "
        "date is. Ask for one at /api/v1/rules/deadlines/{provision}/?start=YYYY-MM-DD.",
        responses={200: serializers.RulesDeadlineRuleSerializer(many=True), 401: NOT_SIGNED_IN},
    )
    def get(self, request):
        rules = calculations.deadline_rules()
        return Response(
            serializers.RulesDeadlineRuleSerializer(rules, many=True, context={"request": request}).data
        )


class DeadlineDetailView(APIView):
    """One deadline, window or minimum counted from a start date (Counting days)."""

    filter_backends: list = []

    @extend_schema(
        tags=TAGS,
        operation_id="rules_deadlines_compute",
        summary="Compute a deadline",
        description="Counts the rule from `start` under the ruleset version in force on `start` and the "
        "Town's holiday calendar, by the kind of limit it is (`counting`). What a person owes the Town "
        "(B6, C4, K1, N1, P6, P8, P9, Q1) has `due`, moved to the next business day when it falls on a "
        "weekend or holiday (CCP §12a), and on a Town closure day only for an act at the office "
        "(`office_act`, CCP §12b). The Town's own maxima (L2's ceiling, L3, L4, P5, D8) never move later: "
        "`due` and `latest` are the last business day on or before the limit (`nominal_due`). Minimums "
        "(L2's floor, B7, F5, G1-start) never move earlier: `earliest` is the floor and "
        "`earliest_business_day` the first business day on or after it. E1 (next service) needs "
        "`frequency_days`: `due` is the last service plus the frequency in calendar days, never moved, "
        "and the device is overdue from `lapses_on` (after the ruleset's `grace_days`). `explanation` "
        "gives the working to read at a hearing.",
        parameters=[
            OpenApiParameter(
                "provision",
                OpenApiTypes.STR,
                OpenApiParameter.PATH,
                enum=calculations.known_provisions(),
                description="The rule's key, e.g. L2 (see the list of rules).",
            ),
            serializers.RulesDeadlineQuerySerializer,
        ],
        responses={
            200: serializers.RulesDeadlineSerializer,
            400: BAD_INPUT,
            401: NOT_SIGNED_IN,
            404: OpenApiResponse(
                OpenApiTypes.OBJECT, description="No such rule; the answer lists the known ones."
            ),
        },
    )
    def get(self, request, provision: str):
        try:
            calculations.find_deadline_rule(provision)
        except UnknownProvision as error:
            raise NotFound(
                {
                    "provision": [calculations.unknown_provision_message(provision)],
                    "known_provisions": calculations.known_provisions(),
                }
            ) from error
        query = serializers.RulesDeadlineQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        answer = calculations.deadline_for(
            provision=provision,
            start=query.validated_data["start"],
            frequency_days=query.validated_data.get("frequency_days"),
        )
        return Response(serializers.RulesDeadlineSerializer(answer).data)


class FrequencyView(APIView):
    """The service frequency accumulation data supports (E1, E3, E4, E9)."""

    parser_classes = [JSONParser]
    filter_backends: list = []

    @extend_schema(
        tags=TAGS,
        operation_id="rules_frequency",
        summary="Recommend a service frequency",
        description="From pump-out observations (days since a full pump-out, FOG depth, solids depth, in "
        "inches), the longest allowed frequency (E1) whose projected fill, with the safety factor, stays "
        "within the E3 limit and that the data supports. With fewer observations than the ruleset needs "
        "(E4), the default frequency for the device kind (E2) and `enough_data: false`.",
        request=serializers.RulesFrequencySerializer,
        responses={
            200: serializers.RulesFrequencyRecommendationSerializer,
            400: BAD_INPUT,
            401: NOT_SIGNED_IN,
        },
        examples=[
            OpenApiExample(
                "Interceptor observed to 90 days",
                request_only=True,
                value={
                    "kind": "gravity_interceptor",
                    "total_depth_in": "48",
                    "observations": [
                        {"days_since_pumpout": 30, "fog_depth_in": "1.5", "solids_depth_in": "1.5"},
                        {"days_since_pumpout": 60, "fog_depth_in": "2", "solids_depth_in": "4"},
                        {"days_since_pumpout": 90, "fog_depth_in": "3", "solids_depth_in": "6"},
                    ],
                },
            )
        ],
    )
    def post(self, request):
        given = serializers.RulesFrequencySerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        answer = calculations.frequency_for(
            kind=data["kind"],
            total_depth_in=data["total_depth_in"],
            observations=[dict(row) for row in data.get("observations", [])],
            on=data.get("as_of") or town_today(),
        )
        return Response(serializers.RulesFrequencyRecommendationSerializer(answer).data)


class PenaltyView(APIView):
    """The administrative civil penalty cap for a violation (P3, P5, P7, P10)."""

    parser_classes = [JSONParser]
    filter_backends: list = []

    @extend_schema(
        tags=TAGS,
        operation_id="rules_penalty",
        summary="Administrative civil penalty cap",
        description="The most the hearing officer may impose for one violation under P7: per day for "
        "no_permit, records and maintenance (each day a separate offence, P3); per sewer system overflow "
        "for sso, at the higher rate when `under_order` (P7(5)). Zero when judicial penalties were "
        "already recovered (P10). `factors` are what the hearing officer must weigh and record.",
        request=serializers.RulesPenaltySerializer,
        responses={200: serializers.RulesPenaltyCapSerializer, 400: BAD_INPUT, 401: NOT_SIGNED_IN},
        examples=[
            OpenApiExample(
                "Maintenance ignored 10 days", request_only=True, value={"kind": "maintenance", "days": 10}
            ),
            OpenApiExample(
                "Two SSOs under a suspension order",
                request_only=True,
                value={"kind": "sso", "occurrences": 2, "under_order": True},
            ),
        ],
    )
    def post(self, request):
        given = serializers.RulesPenaltySerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        answer = calculations.penalty_for(
            kind=data["kind"],
            days=data.get("days"),
            occurrences=data.get("occurrences"),
            under_order=data["under_order"],
            judicially_recovered=data["judicially_recovered"],
            on=data.get("as_of") or town_today(),
        )
        return Response(serializers.RulesPenaltyCapSerializer(answer).data)
