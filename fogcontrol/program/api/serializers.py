"""Program settings API serializers: they shape and check input; every write is a program service."""

from __future__ import annotations

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from fogcontrol.program import services
from fogcontrol.program.models import Holiday, RulesetVersion, TownProfile
from fogcontrol.program.ruleset_fields import differences_from_adopted, field_info


class NeverSaves:
    """Serializers only check input; the program services save, with an audit entry."""

    def create(self, validated_data):
        raise NotImplementedError("Program writes go through fogcontrol.program.services.")

    def update(self, instance, validated_data):
        raise NotImplementedError("Program writes go through fogcontrol.program.services.")


@extend_schema_field(
    {"type": "string", "pattern": r"^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$", "example": "02:00:00"}
)
class TownTimeField(serializers.TimeField):
    """A time of day on the Town's clock, with no offset (the Town profile's time zone gives it):
    not an RFC 3339 "time", which would need one."""


class TownProfileSerializer(NeverSaves, serializers.ModelSerializer):
    """The Town profile: name, time zone, office hours and the contacts permits print (B2, J1, J2)."""

    nightly_sweep_at = TownTimeField(
        required=False, help_text="The Town time the worker runs the nightly sweep, e.g. 02:00."
    )

    class Meta:
        model = TownProfile
        fields = [*services.PROFILE_FIELDS, "updated_at", "version"]
        read_only_fields = ["updated_at", "version"]

    def validate_time_zone(self, value: str) -> str:
        try:
            services.validate_time_zone(value)
        except DjangoValidationError as error:
            raise serializers.ValidationError(error.message_dict["time_zone"]) from error
        return value


class HolidaySerializer(NeverSaves, serializers.ModelSerializer):
    """A day the Town's offices are closed (Counting days)."""

    weekday = serializers.SerializerMethodField()

    class Meta:
        model = Holiday
        fields = ["id", "date", "weekday", "name", "kind"]
        # The service says which holiday already holds a date; the default message would not.
        extra_kwargs = {"date": {"validators": []}}

    def get_weekday(self, holiday: Holiday) -> str:
        return f"{holiday.date:%A}"


class InstallStandardSerializer(serializers.Serializer):
    year = serializers.IntegerField(
        min_value=services.FIRST_CALENDAR_YEAR, max_value=services.LAST_CALENDAR_YEAR
    )


class RulesetChangeSerializer(serializers.Serializer):
    name = serializers.CharField()
    provision = serializers.CharField()
    label = serializers.CharField()
    unit = serializers.CharField()
    value = serializers.CharField(help_text="In this version, as the pages show it.")
    adopted = serializers.CharField(help_text="In Chapter 10.02 as adopted.")


class RulesetVersionSerializer(NeverSaves, serializers.ModelSerializer):
    """A ruleset version. ``values`` holds only what differs from Chapter 10.02 as adopted; on
    input, any value may be given (missing ones take the adopted value), each within its range.
    ``adoption_reference`` and ``adopted_on`` name the ordinance or resolution that adopted it.
    ``ruleset`` is every value in force under the version; ``changes`` lists the amendments with
    their provision IDs.
    """

    values = serializers.JSONField(
        required=False,
        default=dict,
        help_text="Ruleset values by name (see /api/v1/program/rulesets/in-force/ for every name), "
        'e.g. {"fee_delinquency_days": 30}.',
    )
    ruleset = serializers.SerializerMethodField()
    changes = serializers.SerializerMethodField()
    locked = serializers.SerializerMethodField(help_text="In effect on or before today: read-only.")
    created_by = serializers.StringRelatedField(
        allow_null=True, help_text="Empty for the versions a migration installed."
    )

    class Meta:
        model = RulesetVersion
        fields = [
            "id",
            "effective_from",
            "label",
            "adoption_reference",
            "adopted_on",
            "notes",
            "values",
            "ruleset",
            "changes",
            "locked",
            "version",
            "created_at",
            "created_by",
        ]
        read_only_fields = ["created_at", "created_by", "version"]
        # The service names the version that already holds a date, and says what a missing adoption
        # reference or date must be (one message for the page and the API).
        extra_kwargs = {
            "effective_from": {"validators": []},
            "adoption_reference": {"required": False, "allow_blank": True},
            "adopted_on": {"required": False},
        }

    def validate_values(self, value):
        try:
            return services.clean_ruleset_values(value)
        except DjangoValidationError as error:
            detail = error.message_dict if hasattr(error, "error_dict") else {"values": error.messages}
            raise serializers.ValidationError(detail) from error

    def get_ruleset(self, version: RulesetVersion) -> dict:
        return version.as_ruleset().to_dict()

    def get_changes(self, version: RulesetVersion) -> list[dict]:
        rows = differences_from_adopted(version.as_ruleset())
        return RulesetChangeSerializer(rows, many=True).data

    def get_locked(self, version: RulesetVersion) -> bool:
        return services.ruleset_version_is_locked(version, today=self.context["today"])


class InForceSerializer(serializers.Serializer):
    on = serializers.DateField()
    version = RulesetVersionSerializer(allow_null=True)
    values = serializers.DictField(help_text="Every value in force that day, by name.")
    provisions = serializers.DictField(help_text="The provision each value carries, by name.")


def provisions_by_name(values: dict) -> dict[str, str]:
    return {name: field_info(name).provision for name in values}
