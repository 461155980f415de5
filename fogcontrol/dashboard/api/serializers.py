from rest_framework import serializers

from fogcontrol.servicing.models import ManifestFlag

# The two outcomes of a flag's review, as servicing's single review takes them (named once in the
# schema: settings.SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]["FlagReviewOutcomeEnum"]).
FLAG_REVIEW_OUTCOMES = [ManifestFlag.Review.CLEARED, ManifestFlag.Review.REFERRED]


class FigureSerializer(serializers.Serializer):
    key = serializers.CharField()
    label = serializers.CharField()
    count = serializers.IntegerField()
    amount = serializers.DecimalField(max_digits=14, decimal_places=2, allow_null=True)
    provision = serializers.CharField()
    url = serializers.CharField(help_text="The list page these rows are, with its filters.")


class PanelSerializer(serializers.Serializer):
    key = serializers.CharField()
    title = serializers.CharField()
    figures = FigureSerializer(many=True)


class MonthSerializer(serializers.Serializer):
    month = serializers.DateField(help_text="The first day of the month.")
    value = serializers.DecimalField(max_digits=14, decimal_places=2, coerce_to_string=False)


class SeriesSerializer(serializers.Serializer):
    key = serializers.CharField()
    title = serializers.CharField()
    unit = serializers.CharField()
    months = serializers.SerializerMethodField()

    def get_months(self, series) -> list[dict]:
        return MonthSerializer([{"month": m, "value": v} for m, v in series.months], many=True).data


class TodaySerializer(serializers.Serializer):
    as_of = serializers.DateField()
    panels = PanelSerializer(many=True)
    trends = SeriesSerializer(many=True)


class HitSerializer(serializers.Serializer):
    title = serializers.CharField()
    detail = serializers.CharField()
    url = serializers.CharField()


class GroupSerializer(serializers.Serializer):
    key = serializers.CharField()
    title = serializers.CharField()
    hits = HitSerializer(many=True)
    more = serializers.BooleanField()
    list_url = serializers.CharField()


class SearchSerializer(serializers.Serializer):
    q = serializers.CharField()
    groups = GroupSerializer(many=True)


class BulkFlagReviewSerializer(serializers.Serializer):
    outcome = serializers.ChoiceField(choices=FLAG_REVIEW_OUTCOMES)
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        default=list,
        help_text="The flags to review; or leave out and set all_matching.",
    )
    all_matching = serializers.BooleanField(
        default=False, help_text="Every flag matching `review` and `code` (the flag list's filters)."
    )
    review = serializers.ChoiceField(choices=ManifestFlag.Review.choices, default=ManifestFlag.Review.OPEN)
    code = serializers.CharField(required=False, allow_blank=True, default="")
    dry_run = serializers.BooleanField(default=False, help_text="Only count what would be reviewed.")

    def validate(self, data):
        if not data["all_matching"] and not data["ids"]:
            raise serializers.ValidationError({"ids": "Name the flags to review, or set all_matching."})
        if data["outcome"] == ManifestFlag.Review.REFERRED and not data["note"].strip():
            raise serializers.ValidationError(
                {"note": "Say why the manifests are referred (one reason for all)."}
            )
        return data


class RefusalSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    reason = serializers.CharField()


class BulkResultSerializer(serializers.Serializer):
    matched = serializers.IntegerField()
    done = serializers.ListField(child=serializers.IntegerField())
    refused = RefusalSerializer(many=True)


class BulkRenewalSerializer(serializers.Serializer):
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        default=list,
        help_text="The renewal applications to approve; or leave out and set all_matching.",
    )
    all_matching = serializers.BooleanField(
        default=False,
        help_text="Every routine renewal matching `q` and `status` (the application list's filters).",
    )
    q = serializers.CharField(required=False, allow_blank=True, default="")
    status = serializers.CharField(required=False, allow_blank=True, default="")
    dry_run = serializers.BooleanField(default=False, help_text="Only count what would be approved.")

    def validate(self, data):
        if not data["all_matching"] and not data["ids"]:
            raise serializers.ValidationError({"ids": "Name the renewals to approve, or set all_matching."})
        return data
