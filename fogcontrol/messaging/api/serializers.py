from rest_framework import serializers

from fogcontrol.core.languages import Language
from fogcontrol.messaging.models import INVITABLE_ROLE_CHOICES, Invitation, Message
from fogcontrol.registry.models import FoodServiceEstablishment, HaulerCompany, Parcel


class SentMessageSerializer(serializers.ModelSerializer):
    reference = serializers.CharField(read_only=True)

    class Meta:
        model = Message
        fields = [
            "id",
            "reference",
            "kind",
            "to_email",
            "to_name",
            "language",
            "template_key",
            "template_version",
            "subject",
            "body",
            "due_on",
            "establishment",
            "status",
            "queued_at",
            "sent_at",
            "error",
            "bounced_at",
            "bounce_reason",
        ]
        read_only_fields = fields


class BounceSerializer(serializers.Serializer):
    reason = serializers.CharField(help_text="As the mail system reported it, e.g. 550 5.1.1 no such user.")
    bounced_at = serializers.DateTimeField(required=False, allow_null=True)


class InvitationSerializer(serializers.ModelSerializer):
    email = serializers.EmailField(source="user.email", read_only=True)
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = Invitation
        fields = [
            "id",
            "email",
            "username",
            "role",
            "establishment",
            "parcel",
            "hauler",
            "status",
            "expires_at",
            "accepted_at",
            "created_at",
        ]
        read_only_fields = fields


class InvitationCreateSerializer(serializers.Serializer):
    role = serializers.ChoiceField(choices=INVITABLE_ROLE_CHOICES)
    email = serializers.EmailField()
    first_name = serializers.CharField(required=False, allow_blank=True, default="")
    last_name = serializers.CharField(required=False, allow_blank=True, default="")
    language = serializers.ChoiceField(choices=Language.choices, default=Language.ENGLISH)
    establishment = serializers.PrimaryKeyRelatedField(
        queryset=FoodServiceEstablishment.objects.all(), required=False, allow_null=True, default=None
    )
    parcel = serializers.PrimaryKeyRelatedField(
        queryset=Parcel.objects.all(), required=False, allow_null=True, default=None
    )
    hauler = serializers.PrimaryKeyRelatedField(
        queryset=HaulerCompany.objects.all(), required=False, allow_null=True, default=None
    )
