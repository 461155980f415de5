"""Feed tokens in the API: a feed's kind, name and state; its address only in the answer that made it."""

from rest_framework import serializers

from fogcontrol.feeds.models import FeedToken


class FeedTokenSerializer(serializers.ModelSerializer):
    kind_label = serializers.CharField(source="get_kind_display", read_only=True)
    active = serializers.BooleanField(source="is_active", read_only=True)

    class Meta:
        model = FeedToken
        fields = ["id", "kind", "kind_label", "label", "token_prefix", "created_at", "revoked_at", "active"]
        read_only_fields = fields


class FeedTokenCreateSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=FeedToken.Kind.choices)
    label = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")


class NewFeedTokenSerializer(FeedTokenSerializer):
    """The feed just made, with its private address: shown in this answer only (only a hash is kept)."""

    address = serializers.CharField(read_only=True)

    class Meta(FeedTokenSerializer.Meta):
        fields = [*FeedTokenSerializer.Meta.fields, "address"]
        read_only_fields = fields
