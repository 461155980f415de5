"""Registry API serializers: they shape and check input; every write is a registry service.

Serializers never save. A view validates with one of these, then hands `validated_data` to
fogcontrol.registry.services, which validates the model again (`full_clean`), saves and audits.
Related ids are looked up inside the requesting user's scope, so an id the user cannot see reads
as unknown, exactly like an id that does not exist.
"""

from __future__ import annotations

from decimal import Decimal

from django.contrib.auth import get_user_model
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from fogcontrol.core.api.fields import ScopedPrimaryKeyRelatedField
from fogcontrol.core.api.serializers import ExplanationSerializer, RowsSerializerMixin
from fogcontrol.program.selectors import ruleset_on, town_today
from fogcontrol.registry import selectors
from fogcontrol.registry.models import (
    FoodServiceEstablishment,
    GreaseControlDevice,
    HaulerCompany,
    HaulerVehicle,
    Parcel,
    Party,
    ReceivingFacility,
)
from fogcontrol.rules.responsibility import PROPERTY_OWNER

User = get_user_model()


def _users_field(**kwargs):
    """Users linked to a record (outside users see the records they are linked to)."""
    return serializers.PrimaryKeyRelatedField(
        queryset=User.objects.filter(is_active=True),
        many=True,
        required=False,
        help_text="Ids of the user accounts linked to this record; they see it in their portal.",
        **kwargs,
    )


class RegistryModelSerializer(RowsSerializerMixin, serializers.ModelSerializer):
    """Shapes and checks a record; never saves it (the registry services do, with an audit entry)."""

    def create(self, validated_data):
        raise NotImplementedError("Registry writes go through fogcontrol.registry.services.")

    def update(self, instance, validated_data):
        raise NotImplementedError("Registry writes go through fogcontrol.registry.services.")


class NamedRefSerializer(serializers.Serializer):
    """A reference to another record: its id and the name a clerk knows it by."""

    id = serializers.IntegerField()
    name = serializers.CharField()


class ResponsibilitySerializer(serializers.Serializer):
    """Who answers for a device (A2, A3)."""

    responsible = serializers.ChoiceField(
        choices=[("fse", "The FSE it serves"), ("property_owner", "The commercial property owner")]
    )
    label = serializers.CharField()
    notices_to = NamedRefSerializer(
        allow_null=True, help_text="Who receives installation and maintenance notices."
    )
    notices_to_kind = serializers.ChoiceField(
        choices=[("establishment", "Establishment"), ("party", "Party")], allow_null=True
    )
    needs_review = serializers.BooleanField(
        help_text="True when the records do not settle A2 and the FOG Manager should review them."
    )
    explanation = ExplanationSerializer()


# --- Parties ------------------------------------------------------------------------------------


class PartySerializer(RegistryModelSerializer):
    """A person or organisation: owner, operator, designee (staff only: personal data)."""

    mailing_address = serializers.CharField(read_only=True)

    class Meta:
        model = Party
        fields = [
            "id",
            "kind",
            "name",
            "contact_name",
            "email",
            "preferred_language",
            "phone",
            "mailing_address_line1",
            "mailing_address_line2",
            "mailing_city",
            "mailing_state",
            "mailing_postal_code",
            "mailing_address",
            "notes",
            "created_at",
            "updated_at",
            "version",
        ]
        read_only_fields = ["created_at", "updated_at", "version"]


# --- Parcels ------------------------------------------------------------------------------------


class ParcelSerializer(RegistryModelSerializer):
    """A parcel by APN with its owner of record and the owner's designee (A2)."""

    owner = ScopedPrimaryKeyRelatedField(
        queryset=Party.objects.all(),
        what="party",
        where="/api/v1/parties/",
        allow_null=True,
        required=False,
    )
    owner_designee = ScopedPrimaryKeyRelatedField(
        queryset=Party.objects.all(),
        what="party",
        where="/api/v1/parties/",
        allow_null=True,
        required=False,
        help_text="The owner's official designee, who receives A2 notices when named.",
    )
    owner_name = serializers.CharField(source="owner.name", read_only=True, default=None, allow_null=True)
    owner_designee_name = serializers.CharField(
        source="owner_designee.name", read_only=True, default=None, allow_null=True
    )

    class Meta:
        model = Parcel
        fields = [
            "id",
            "apn",
            "situs_address",
            "city",
            "postal_code",
            "owner",
            "owner_name",
            "owner_designee",
            "owner_designee_name",
            "created_at",
            "updated_at",
            "version",
        ]
        read_only_fields = ["created_at", "updated_at", "version"]


class ParcelWriteSerializer(ParcelSerializer):
    """Staff also link property owner accounts to a parcel."""

    owner_users = _users_field()

    class Meta(ParcelSerializer.Meta):
        fields = ParcelSerializer.Meta.fields + ["owner_users"]


class ParcelEstablishmentSerializer(RegistryModelSerializer):
    class Meta:
        model = FoodServiceEstablishment
        fields = ["id", "business_name", "licence_number", "site_address", "status"]


class ParcelDeviceSerializer(RegistryModelSerializer):
    establishments = serializers.PrimaryKeyRelatedField(many=True, read_only=True)
    # The parcel's detail loads them as a list (registry.selectors.parcel_detail).
    prefetched_lists = {"establishments": "api_establishments"}

    class Meta:
        model = GreaseControlDevice
        fields = ["id", "identifier", "kind", "status", "capacity_gallons", "a4_flags", "establishments"]


class ParcelDetailSerializer(ParcelSerializer):
    """A parcel with the FSEs and devices on it that the requesting user may see."""

    establishments = ParcelEstablishmentSerializer(source="visible_establishments", many=True, read_only=True)
    devices = ParcelDeviceSerializer(source="visible_devices", many=True, read_only=True)

    class Meta(ParcelSerializer.Meta):
        fields = ParcelSerializer.Meta.fields + ["establishments", "devices"]


# --- Haulers, vehicles, receiving facilities ----------------------------------------------------


class VehicleSerializer(RegistryModelSerializer):
    class Meta:
        model = HaulerVehicle
        fields = ["id", "hauler", "plate", "description", "tank_capacity_gallons", "active"]
        read_only_fields = ["hauler"]
        # The hauler comes from the URL, so the (hauler, plate) check is done in validate_plate,
        # where the message can name the field.
        validators: list = []

    def validate_plate(self, value: str) -> str:
        hauler = self.context.get("hauler")
        if hauler is not None and hauler.vehicles.filter(plate__iexact=value).exists():
            raise serializers.ValidationError(f"{hauler} already has a vehicle with plate {value}.")
        return value


class HaulerSerializer(RegistryModelSerializer):
    vehicles = VehicleSerializer(many=True, read_only=True)

    class Meta:
        model = HaulerCompany
        fields = [
            "id",
            "name",
            "state_registration_number",
            "licence_number",
            "phone",
            "email",
            "address",
            "active",
            "vehicles",
            "created_at",
            "updated_at",
            "version",
        ]
        read_only_fields = ["created_at", "updated_at", "version"]


class HaulerWriteSerializer(HaulerSerializer):
    users = _users_field()

    class Meta(HaulerSerializer.Meta):
        fields = HaulerSerializer.Meta.fields + ["users"]


class FacilitySerializer(RegistryModelSerializer):
    """A receiving facility where hauled FOG is delivered (E7, F5)."""

    class Meta:
        model = ReceivingFacility
        fields = ["id", "name", "address", "permit_number", "active"]


# --- Establishments -----------------------------------------------------------------------------


class EstablishmentSerializer(RegistryModelSerializer):
    """An FSE, known by its business name and licence (A1)."""

    parcel = ScopedPrimaryKeyRelatedField(
        queryset=Parcel.objects.all(),
        what="parcel",
        where="/api/v1/parcels/",
        allow_null=True,
        required=False,
    )
    parcel_apn = serializers.CharField(source="parcel.apn", read_only=True, default=None, allow_null=True)
    operator = ScopedPrimaryKeyRelatedField(
        queryset=Party.objects.all(),
        what="party",
        where="/api/v1/parties/",
        allow_null=True,
        required=False,
    )
    operator_name = serializers.CharField(
        source="operator.name", read_only=True, default=None, allow_null=True
    )
    contact = ScopedPrimaryKeyRelatedField(
        queryset=Party.objects.all(),
        what="party",
        where="/api/v1/parties/",
        allow_null=True,
        required=False,
    )
    contact_name = serializers.CharField(source="contact.name", read_only=True, default=None, allow_null=True)
    haulers = ScopedPrimaryKeyRelatedField(
        queryset=HaulerCompany.objects.all(),
        what="hauler",
        where="/api/v1/haulers/",
        many=True,
        required=False,
        help_text="The haulers this FSE has engaged: they may see it and submit its manifests.",
    )
    users = _users_field()
    device_count = serializers.IntegerField(read_only=True)
    # The API's list loads these as lists (registry.selectors.establishment_list_for_api).
    prefetched_lists = {"users": "api_users", "haulers": "api_haulers"}

    class Meta:
        model = FoodServiceEstablishment
        fields = [
            "id",
            "business_name",
            "licence_number",
            "licence_expires_on",
            "site_address",
            "parcel",
            "parcel_apn",
            "operator",
            "operator_name",
            "contact",
            "contact_name",
            "category",
            "food_types",
            "meals_per_day",
            "dining_capacity",
            "employees",
            "kitchen_size_sqft",
            "food_preparation_hours",
            "cleaning_hours",
            "status",
            "closed_on",
            "latitude",
            "longitude",
            "haulers",
            "users",
            "device_count",
            "created_at",
            "updated_at",
            "version",
        ]
        read_only_fields = ["created_at", "updated_at", "version"]


class EstablishmentCloseSerializer(serializers.Serializer):
    closed_on = serializers.DateField(
        required=False, allow_null=True, help_text="The day it closed; today in the Town if not given."
    )


# --- Devices ------------------------------------------------------------------------------------


class ServedEstablishmentSerializer(RegistryModelSerializer):
    parcel_apn = serializers.CharField(source="parcel.apn", read_only=True, default=None, allow_null=True)

    class Meta:
        model = FoodServiceEstablishment
        fields = ["id", "business_name", "status", "parcel_apn"]


class DeviceSerializer(RegistryModelSerializer):
    """A grease interceptor or trap (A3-A5). A4 shortfalls are stored as flags, never refused."""

    parcel = ScopedPrimaryKeyRelatedField(
        queryset=Parcel.objects.all(),
        what="parcel",
        where="/api/v1/parcels/",
        allow_null=True,
        required=False,
    )
    parcel_apn = serializers.CharField(source="parcel.apn", read_only=True, default=None, allow_null=True)
    establishments = ScopedPrimaryKeyRelatedField(
        queryset=FoodServiceEstablishment.objects.all(),
        what="establishment",
        where="/api/v1/establishments/",
        many=True,
        required=False,
        help_text="Ids of the FSEs the device serves. Several FSEs on one parcel: A2 applies.",
    )
    establishments_served = ServedEstablishmentSerializer(source="establishments", many=True, read_only=True)
    a4_flags = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="How the recorded construction falls short of A4; empty when it does not.",
    )
    responsible = serializers.SerializerMethodField(help_text="Who answers for the device (A2, A3).")
    # The API's list loads the FSEs served as a list (registry.selectors.device_list_for_api).
    prefetched_lists = {"establishments": "api_establishments"}

    class Meta:
        model = GreaseControlDevice
        fields = [
            "id",
            "identifier",
            "kind",
            "status",
            "capacity_gallons",
            "rated_flow_gpm",
            "total_design_depth_in",
            "compartments",
            "manhole_diameter_in",
            "location_description",
            "access_notes",
            "installed_on",
            "building_permit_number",
            "parcel",
            "parcel_apn",
            "establishments",
            "establishments_served",
            "assigned_frequency_days",
            "a4_flags",
            "responsible",
            "created_at",
            "updated_at",
            "version",
        ]
        read_only_fields = ["created_at", "updated_at", "version"]
        extra_kwargs = {
            "manhole_diameter_in": {"min_value": Decimal("0")},
            "assigned_frequency_days": {
                "help_text": "E1: one of the frequencies in the program rules (days); empty means "
                "the E2 default for the kind."
            },
        }

    def validate_total_design_depth_in(self, value):
        # The 25% rule (E3) divides by this depth: zero or less can never be right.
        if value is not None and value <= 0:
            raise serializers.ValidationError(
                "The total design hydraulic depth must be more than 0 inches (E3); leave it empty if unknown."
            )
        return value

    def validate_assigned_frequency_days(self, value):
        # B7: a change of an existing device's frequency needs notice to the permittee first, so
        # it goes through the servicing workflow, never a plain edit of the registry.
        if self.instance is not None and value != self.instance.assigned_frequency_days:
            raise serializers.ValidationError(
                "A device's service frequency is changed with "
                f"POST /api/v1/devices/{self.instance.pk}/frequency/, which gives the permittee the "
                "notice B7 requires before the change takes effect."
            )
        # E1: the FOG Manager assigns one of the frequencies the program rules allow.
        if value is None:
            return value
        allowed = ruleset_on(town_today()).allowed_frequencies_days
        if value not in allowed:
            choices = ", ".join(str(days) for days in allowed)
            raise serializers.ValidationError(
                f"{value} days is not an assignable frequency (E1). Choose one of: {choices} days."
            )
        return value

    @extend_schema_field(ResponsibilitySerializer)
    def get_responsible(self, device: GreaseControlDevice) -> dict:
        responsibility = selectors.responsibility_for(device)
        recipient = selectors.notice_recipient_for(device, responsibility)
        if isinstance(recipient, FoodServiceEstablishment | selectors.ServedRow):
            notices_to, kind = {"id": recipient.pk, "name": recipient.business_name}, "establishment"
        elif recipient is not None:
            notices_to, kind = {"id": recipient.pk, "name": recipient.name}, "party"
        else:
            notices_to, kind = None, None
        return {
            "responsible": responsibility.responsible,
            "label": "Property owner"
            if responsibility.responsible == PROPERTY_OWNER
            else "The FSE it serves",
            "notices_to": notices_to,
            "notices_to_kind": kind,
            "needs_review": responsibility.needs_review,
            "explanation": responsibility.explanation.as_dict(),
        }
