"""Requests and answers of the rules API, declared field by field so the OpenAPI docs show them.

Request serializers check shape and range (a real date, a known kind, a depth that is not
negative) with messages that say how to fix the input; the checks that need the ordinance (FOG +
solids within the device, days or occurrences for the kind of violation) come from
``fogcontrol.program.calculator.calculations``, so the page and the API refuse the same things in
the same words. Answer serializers read the calculator's results; they compute nothing.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP

from django.urls import reverse
from rest_framework import serializers

from fogcontrol.core.api.serializers import ExplanationSerializer
from fogcontrol.program.calculator import calculations
from fogcontrol.rules.counting import KIND_DEADLINE, KIND_MINIMUM, KIND_WINDOW, LIMIT_LABELS

DATE_MESSAGES = {
    "invalid": "Not a date on the calendar. Give the date as YYYY-MM-DD, e.g. 2026-06-18.",
    "required": "Give the date as YYYY-MM-DD, e.g. 2026-06-18.",
    "null": "Give the date as YYYY-MM-DD, e.g. 2026-06-18.",
    "datetime": "Give a date without a time, as YYYY-MM-DD, e.g. 2026-06-18.",
}
DEPTH_MESSAGES = {
    "required": "Give the depth in inches (0 if none).",
    "null": "Give the depth in inches (0 if none).",
    "min_value": "A depth cannot be negative; enter 0 if there was none.",
    "invalid": "Give the depth in inches as a number, e.g. 3.5.",
    "max_digits": "That depth is too large; give it in inches, e.g. 48.",
    "max_whole_digits": "That depth is too large; give it in inches, e.g. 48.",
    "max_decimal_places": "Give the depth to at most 2 decimal places, e.g. 3.25.",
}


def _date_field(**kwargs) -> serializers.DateField:
    return serializers.DateField(input_formats=["iso-8601"], error_messages=DATE_MESSAGES, **kwargs)


def _choice_messages(choices: dict[str, str]) -> dict[str, str]:
    return {"invalid_choice": '"{input}" is not a choice here. Choose one of: ' + ", ".join(choices) + "."}


def _errors_for_drf(errors: dict[str, str]) -> dict[str, list[str]]:
    return {field: [message] for field, message in errors.items()}


# --- shared answer parts -----------------------------------------------------------------------


class RulesetVersionUsedSerializer(serializers.Serializer):
    """Which version of the program's numbers the answer used."""

    id = serializers.IntegerField(allow_null=True, help_text="Null: the ordinance as adopted.")
    label = serializers.CharField()
    effective_from = serializers.DateField(allow_null=True)
    in_force_on = serializers.DateField(help_text="The day whose rules were applied.")


# --- deadlines ---------------------------------------------------------------------------------


class RulesDeadlineRuleSerializer(serializers.Serializer):
    """One deadline the calculator knows."""

    slug = serializers.CharField(help_text="The key to ask for, e.g. L2 or M3-hearing.")
    provisions = serializers.ListField(child=serializers.CharField())
    title = serializers.CharField()
    start_description = serializers.CharField(help_text="What the start date is.")
    section = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()

    def get_section(self, rule) -> str:
        return calculations.section_of(rule)

    def get_url(self, rule) -> str:
        path = reverse("rules-deadline-detail", kwargs={"provision": rule.slug})
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path


class RulesDeadlineQuerySerializer(serializers.Serializer):
    start = _date_field(help_text="The start date the rule counts from, YYYY-MM-DD (see start_description).")
    frequency_days = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=3650,
        error_messages={
            "invalid": "Give the frequency as a whole number of days, e.g. 90.",
            "min_value": "Give 1 or more days.",
            "max_value": "Give at most 3650 days.",
        },
        help_text="E1 only, and required there: the device's service frequency in days, one the ruleset "
        "in force on `start` allows (E1; e.g. 30, 60, 90, 120, 180). Other rules ignore it.",
    )


class RulesDeadlineSerializer(serializers.Serializer):
    """A computed deadline, window or minimum, with its working (Counting days)."""

    provision = serializers.CharField(source="deadline.slug", help_text="The rule asked for.")
    provisions = serializers.ListField(child=serializers.CharField(), source="rule.provisions")
    title = serializers.CharField(source="deadline.title")
    kind = serializers.ChoiceField(
        choices=[KIND_DEADLINE, KIND_MINIMUM, KIND_WINDOW],
        source="deadline.kind",
        help_text="deadline: the last day an act is on time; minimum: a period that never moves; "
        "window: a range of permitted days (L2).",
    )
    start = serializers.DateField(source="deadline.start")
    start_description = serializers.CharField(source="rule.start_description")
    due = serializers.DateField(
        source="deadline.due", allow_null=True, help_text="Last day on time, after any move."
    )
    nominal_due = serializers.DateField(
        source="deadline.nominal_due", allow_null=True, help_text="Before any weekend/holiday move."
    )
    moved = serializers.BooleanField(
        source="deadline.moved",
        help_text="Moved off a closed day: later to the next business day for what a person owes the Town "
        "(CCP §12a, §12b); earlier to the last business day for the Town's own maximum. A maintenance due "
        "date (E1) never moves.",
    )
    counting = serializers.ListField(
        child=serializers.ChoiceField(choices=list(LIMIT_LABELS)),
        source="deadline.counting",
        help_text="The kinds of limit applied (Counting days): owed (what a person owes the Town; moves "
        "later), town_maximum (the Town's own maximum; never later), minimum (never earlier), maintenance "
        "(calendar days; never moves), business_days (counted in business days).",
    )
    counting_labels = serializers.ListField(
        child=serializers.CharField(), source="deadline.counting_labels", help_text="The same, in words."
    )
    office_act = serializers.BooleanField(
        source="deadline.office_act",
        help_text="The act is done at the Town's office (a filing, a payment): closure days move it too "
        "(CCP §12b).",
    )
    frequency_days = serializers.IntegerField(
        allow_null=True, help_text="E1: the service frequency the due date was counted with."
    )
    grace_days = serializers.IntegerField(
        source="deadline.grace_days",
        help_text="E1: the ruleset's grace period; the device is overdue from lapses_on (due + grace + 1).",
    )
    earliest = serializers.DateField(
        source="deadline.earliest", allow_null=True, help_text="A minimum's floor: never moves earlier."
    )
    earliest_business_day = serializers.DateField(
        source="deadline.earliest_business_day",
        allow_null=True,
        help_text="The earliest usable date: the first business day on or after the floor.",
    )
    latest = serializers.DateField(
        source="deadline.latest",
        allow_null=True,
        help_text="The Town's own maximum: the last business day on or before the limit (never later).",
    )
    lapses_on = serializers.DateField(
        source="deadline.lapses_on", allow_null=True, help_text="First day the status changes."
    )
    lapse_label = serializers.CharField(source="deadline.lapse_label", help_text="What changes on lapses_on.")
    ruleset_version = RulesetVersionUsedSerializer(source="rules_used.as_dict")
    warnings = serializers.ListField(child=serializers.CharField())
    explanation = ExplanationSerializer(source="deadline.explanation")


# --- service frequency -------------------------------------------------------------------------


class RulesObservationSerializer(serializers.Serializer):
    """Accumulation seen some days after a full pump-out (E4, E9)."""

    days_since_pumpout = serializers.IntegerField(
        min_value=1,
        max_value=3650,
        error_messages={
            "min_value": "Give the days since the last full pump-out: 1 or more.",
            "max_value": "Give the days since the last full pump-out: at most 3650.",
            "invalid": "Give the days since the last full pump-out as a whole number, e.g. 30.",
        },
    )
    fog_depth_in = serializers.DecimalField(
        max_digits=7, decimal_places=2, min_value=0, error_messages=DEPTH_MESSAGES, help_text="Inches."
    )
    solids_depth_in = serializers.DecimalField(
        max_digits=7, decimal_places=2, min_value=0, error_messages=DEPTH_MESSAGES, help_text="Inches."
    )


class RulesFrequencySerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=list(calculations.DEVICE_KIND_LABELS.items()),
        error_messages=_choice_messages(calculations.DEVICE_KIND_LABELS),
        help_text="The kind of grease control device.",
    )
    total_depth_in = serializers.DecimalField(
        max_digits=7,
        decimal_places=2,
        error_messages={
            **DEPTH_MESSAGES,
            "required": "Give the device's total design hydraulic depth in inches, e.g. 48.",
            "null": "Give the device's total design hydraulic depth in inches, e.g. 48.",
        },
        help_text="Total design hydraulic depth of the device, inches (E3).",
    )
    observations = RulesObservationSerializer(
        many=True,
        required=False,
        max_length=calculations.MAX_OBSERVATIONS,
        help_text="Readings in the order taken; the last is the device's latest.",
    )
    as_of = _date_field(required=False, help_text="Apply the rules in force on this day (default: today).")

    def validate_total_depth_in(self, value):
        if value <= 0:
            raise serializers.ValidationError("The total design depth must be more than 0 inches.")
        return value

    def validate(self, attrs):
        observations = attrs.get("observations", [])
        errors = calculations.observation_errors(attrs["total_depth_in"], observations)
        if any(errors):
            # Keyed by the row's index, as DRF reports errors inside a list of objects.
            by_row = {str(index): _errors_for_drf(row) for index, row in enumerate(errors) if row}
            raise serializers.ValidationError({"observations": by_row})
        return attrs


class RulesProjectionSerializer(serializers.Serializer):
    days = serializers.IntegerField(help_text="An allowed frequency (E1).")
    projected_fill_ratio = serializers.DecimalField(
        max_digits=None,
        decimal_places=4,
        rounding=ROUND_HALF_UP,
        help_text="The average accumulation rate projected to this frequency (E3, E4).",
    )
    with_safety_factor = serializers.DecimalField(
        max_digits=None,
        decimal_places=4,
        rounding=ROUND_HALF_UP,
        help_text="Advice only: the projection times the safety margin. Never a ground for a decision.",
    )
    within_limit = serializers.BooleanField(help_text="The projected fill is within the E3 limit.")


class RulesFrequencyRecommendationSerializer(serializers.Serializer):
    """The frequency the data supports, and how full the device was at its last reading."""

    kind = serializers.CharField()
    total_depth_in = serializers.DecimalField(max_digits=None, decimal_places=2)
    recommended_frequency_days = serializers.IntegerField(source="recommendation.recommended_frequency_days")
    fill_ratio = serializers.DecimalField(
        source="recommendation.fill_ratio_last",
        max_digits=None,
        decimal_places=4,
        rounding=ROUND_HALF_UP,
        allow_null=True,
        help_text="(FOG + solids) / total depth at the last observation (E3); null without one.",
    )
    fill_limit = serializers.DecimalField(
        source="recommendation.fill_limit", max_digits=None, decimal_places=4
    )
    over_limit = serializers.BooleanField(help_text="The last observation is over the E3 limit (E6).")
    enough_data = serializers.BooleanField(source="recommendation.enough_data")
    needs_more_frequent_than_allowed = serializers.BooleanField(
        source="recommendation.needs_more_frequent_than_allowed"
    )
    rate_in_per_day = serializers.DecimalField(
        source="recommendation.rate_in_per_day",
        max_digits=None,
        decimal_places=6,
        rounding=ROUND_HALF_UP,
        allow_null=True,
    )
    safety_factor = serializers.DecimalField(
        source="recommendation.safety_factor",
        max_digits=None,
        decimal_places=2,
        help_text="Advice only: the margin behind `with_safety_factor` and `advice`.",
    )
    advice = serializers.ListField(
        source="recommendation.advice",
        child=serializers.CharField(),
        help_text="Advice beside the recommendation (a safety margin): never a ground for it.",
    )
    longest_supported_days = serializers.IntegerField(
        source="recommendation.longest_supported_days", allow_null=True
    )
    observations_used = serializers.IntegerField(source="recommendation.observations_used")
    projected_fill_by_frequency = RulesProjectionSerializer(source="projections", many=True)
    ruleset_version = RulesetVersionUsedSerializer(source="rules_used.as_dict")
    explanation = ExplanationSerializer(source="recommendation.explanation")


# --- penalty caps ------------------------------------------------------------------------------

COUNT_MESSAGES = {
    "invalid": "Give a whole number, e.g. 3.",
    "min_value": "Give 1 or more.",
    "max_value": "Give at most {max_value}.",
}


class RulesPenaltySerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=list(calculations.VIOLATION_KIND_LABELS.items()),
        error_messages=_choice_messages(calculations.VIOLATION_KIND_LABELS),
        help_text="The P7 violation: no_permit, records, maintenance (per day) or sso (per occurrence).",
    )
    days = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=36500,
        error_messages=COUNT_MESSAGES,
        help_text="Days the violation continued (P3), for no_permit, records, maintenance.",
    )
    occurrences = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=10000,
        error_messages=COUNT_MESSAGES,
        help_text="Number of sewer system overflows, for sso.",
    )
    under_order = serializers.BooleanField(
        default=False, help_text="SSO while under a revocation, suspension or other order (P7(5))."
    )
    judicially_recovered = serializers.BooleanField(
        default=False, help_text="Judicial civil penalties already recovered for it (P10)."
    )
    as_of = _date_field(
        required=False, help_text="Apply the rules in force on this day, e.g. the violation (default: today)."
    )

    def validate(self, attrs):
        errors = calculations.penalty_input_errors(
            kind=attrs["kind"],
            days=attrs.get("days"),
            occurrences=attrs.get("occurrences"),
            under_order=attrs.get("under_order", False),
        )
        if errors:
            raise serializers.ValidationError(_errors_for_drf(errors))
        return attrs


class RulesPenaltyCapSerializer(serializers.Serializer):
    """The most the hearing officer may impose, and what they must weigh (P7)."""

    kind = serializers.CharField(source="cap.kind")
    max_amount = serializers.DecimalField(
        source="cap.max_amount", max_digits=None, decimal_places=2, help_text="US dollars, as a string."
    )
    per_unit = serializers.DecimalField(source="cap.per_unit", max_digits=None, decimal_places=2)
    units = serializers.IntegerField(source="cap.units")
    unit_label = serializers.CharField(source="cap.unit_label", help_text="day or occurrence.")
    under_order = serializers.BooleanField()
    judicially_recovered = serializers.BooleanField()
    factors = serializers.ListField(child=serializers.CharField(), source="cap.factors")
    ruleset_version = RulesetVersionUsedSerializer(source="rules_used.as_dict")
    explanation = ExplanationSerializer(source="cap.explanation")
