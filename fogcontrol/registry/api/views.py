"""The registry API (/api/v1/): establishments, devices, parcels, parties, haulers, facilities.

Thin views. Reads come from fogcontrol.registry.selectors, scoped to the user: a record outside
the user's scope is not found (404) and never listed. Writes go through
fogcontrol.registry.services (validated, audited), and only the FOG Manager and inspectors may
make them: anyone else gets 403 on a record they can see. Nothing is deleted: a closed FSE or a
removed device keeps its history, so DELETE answers 405 and says what to do instead.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, permissions, status
from rest_framework.decorators import action
from rest_framework.exceptions import MethodNotAllowed
from rest_framework.response import Response

from fogcontrol.core.api.versions import VersionETag, if_match_version
from fogcontrol.core.api.views import ScopedViewSet
from fogcontrol.core.concurrency import Versioned
from fogcontrol.core.permissions import has_role
from fogcontrol.core.roles import REGISTRY_EDITORS
from fogcontrol.registry import selectors, services
from fogcontrol.registry.api import serializers
from fogcontrol.registry.filters import (
    DeviceFilter,
    EstablishmentFilter,
    FacilityFilter,
    HaulerFilter,
    ParcelFilter,
    PartyFilter,
)

WRITE_ACTIONS = frozenset({"create", "update", "partial_update"})


class CanEditRegistry(permissions.BasePermission):
    """Reads for anyone signed in (scoped by the selectors); writes for registry editors.

    On a single record the refusal waits until the record has been looked up in the user's
    scope, so that a record the user cannot see answers 404 rather than 403 (no leak).
    """

    message = "Only the FOG Manager and inspectors may change the registry."

    def has_permission(self, request, view) -> bool:
        if request.method in permissions.SAFE_METHODS or getattr(view, "detail", False):
            return True
        return has_role(request.user, REGISTRY_EDITORS)

    def has_object_permission(self, request, view, obj) -> bool:
        return request.method in permissions.SAFE_METHODS or has_role(request.user, REGISTRY_EDITORS)


class IsProgramStaff(permissions.BasePermission):
    message = "Contact records hold personal data: only Town staff may see them."

    def has_permission(self, request, view) -> bool:
        return request.user.is_program_staff


class RegistryViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """Shared plumbing: serializer per action, writes through services, no deletion."""

    permission_classes = [permissions.IsAuthenticated, CanEditRegistry]
    write_serializer_class: type | None = None
    # Said in the 405 answer to DELETE: why nothing is deleted and what to do instead.
    no_delete_reason = "Registry records are not deleted: they carry the program's history."

    def get_serializer_class(self):
        if self.action in WRITE_ACTIONS and self.write_serializer_class is not None:
            return self.write_serializer_class
        return self.serializer_class

    def http_method_not_allowed(self, request, *args, **kwargs):
        if request.method == "DELETE":
            raise MethodNotAllowed("DELETE", detail=self.no_delete_reason)
        return super().http_method_not_allowed(request, *args, **kwargs)

    def refetch(self, record):
        """The record as the list shows it (annotations, related names) after a write."""
        return self.get_queryset().get(pk=record.pk)


class WritesThroughServices:
    """Creates and updates call the registry services (validated, audited), never `serializer.save()`.

    Listed first among a viewset's bases so that these win over DRF's mixins.
    """

    def create_record(self, **data):
        raise NotImplementedError

    def update_record(self, record, **data):
        raise NotImplementedError

    def perform_create(self, serializer):
        record = self.create_record(acting_user=self.request.user, **serializer.validated_data)
        serializer.instance = self.refetch(record)

    def perform_update(self, serializer):
        data = dict(serializer.validated_data)
        if isinstance(serializer.instance, Versioned):
            # If-Match: refused with 409 if the record moved on (fogcontrol/core/api/versions.py).
            data["expected_version"] = if_match_version(self.request)
        record = self.update_record(serializer.instance, acting_user=self.request.user, **data)
        serializer.instance = self.refetch(record)


class EditableRegistryViewSet(
    VersionETag, WritesThroughServices, mixins.CreateModelMixin, mixins.UpdateModelMixin, RegistryViewSet
):
    """Each record carries its `version`; its detail answers an ETag, and PATCH/PUT honour If-Match."""

    def update(self, request, *args, **kwargs):
        """The whole record after a PUT or PATCH, as GET shows it. A PATCH's serializer is partial,
        and DRF then leaves out every field whose source is empty (a parcel without a designee had
        no `owner_designee_name` at all) instead of giving it as null (found by schemathesis)."""
        partial = kwargs.pop("partial", False)
        serializer = self.get_serializer(self.get_object(), data=request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        self.perform_update(serializer)
        return Response(self.get_serializer(serializer.instance).data)


# --- Establishments -----------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        summary="List food service establishments",
        description="The FSEs you may see: Town staff see all; an FSE its own; a property owner those "
        "on its parcels; a hauler its customers.",
    ),
    retrieve=extend_schema(summary="One food service establishment"),
    create=extend_schema(summary="Register an FSE (A1)", description="FOG Manager and inspectors only."),
    update=extend_schema(summary="Change an FSE"),
    partial_update=extend_schema(
        summary="Change some of an FSE's fields",
        description='`{"status": "closed"}` closes it (closed_on defaults to today); nothing is deleted.',
    ),
)
class EstablishmentViewSet(EditableRegistryViewSet):
    serializer_class = serializers.EstablishmentSerializer
    filterset_class = EstablishmentFilter
    search_fields = ["business_name", "licence_number", "site_address", "parcel__apn"]
    ordering_fields = [
        "business_name",
        "licence_number",
        "licence_expires_on",
        "status",
        "closed_on",
        "device_count",
        "created_at",
        "updated_at",
    ]
    ordering = ["business_name", "pk"]
    no_delete_reason = (
        "An establishment is never deleted, so that its permits, manifests and inspections keep "
        'their history. Close it instead: POST /api/v1/establishments/{id}/close/ or PATCH {"status": "closed"}.'
    )

    def get_queryset(self):
        return selectors.establishment_list_for_api(self.request.user, as_lists=self.action == "list")

    def create_record(self, **data):
        return services.establishment_create(**data)

    def update_record(self, record, **data):
        return services.establishment_update(establishment=record, **data)

    @extend_schema(
        summary="Close an FSE",
        description="Sets the status to closed and keeps every record of it. 409 if it is already closed.",
        request=serializers.EstablishmentCloseSerializer,
        responses={
            200: serializers.EstablishmentSerializer,
            409: OpenApiResponse(description="The establishment is already closed."),
        },
    )
    @action(detail=True, methods=["post"], filter_backends=[])
    def close(self, request, pk=None, **kwargs):  # kwargs: the DefaultRouter's .json suffix
        establishment = self.get_object()
        form = serializers.EstablishmentCloseSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        services.establishment_close(
            establishment=establishment,
            acting_user=request.user,
            closed_on=form.validated_data.get("closed_on"),
        )
        return Response(self.get_serializer(self.refetch(establishment)).data)


# --- Devices ------------------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        summary="List grease control devices",
        description="Each device carries its A4 flags and who is responsible for it (A2), with the reason.",
    ),
    retrieve=extend_schema(summary="One grease control device"),
    create=extend_schema(
        summary="Register a grease control device (A3-A5)",
        description="A device that falls short of A4 is saved, with its shortfalls in `a4_flags`.",
    ),
    update=extend_schema(summary="Change a device"),
    partial_update=extend_schema(summary="Change some of a device's fields"),
)
class DeviceViewSet(EditableRegistryViewSet):
    serializer_class = serializers.DeviceSerializer
    filterset_class = DeviceFilter
    search_fields = ["identifier", "location_description", "parcel__apn"]
    ordering_fields = ["identifier", "kind", "status", "capacity_gallons", "installed_on", "created_at"]
    ordering = ["identifier"]
    no_delete_reason = (
        "A device is never deleted, so that its servicing history is kept. "
        'Mark it removed instead: PATCH {"status": "removed"}.'
    )

    def get_queryset(self):
        return selectors.device_list_for_api(self.request.user, as_lists=self.action == "list")

    def paginate_queryset(self, queryset):
        # The list's page reads the FSEs its devices serve as rows, in one query (issue 16).
        page = super().paginate_queryset(queryset)
        return page if page is None or self.action != "list" else selectors.with_served_rows(page)

    def create_record(self, **data):
        return services.device_create(**data)

    def update_record(self, record, **data):
        return services.device_update(device=record, **data)


# --- Parcels ------------------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(summary="List parcels"),
    retrieve=extend_schema(
        summary="One parcel, with the FSEs and devices on it",
        description="Only the FSEs and devices you may see are listed.",
    ),
    create=extend_schema(summary="Register a parcel"),
    update=extend_schema(summary="Change a parcel"),
    partial_update=extend_schema(summary="Change some of a parcel's fields"),
)
class ParcelViewSet(EditableRegistryViewSet):
    serializer_class = serializers.ParcelSerializer
    write_serializer_class = serializers.ParcelWriteSerializer
    filterset_class = ParcelFilter
    search_fields = ["apn", "situs_address", "owner__name"]
    ordering_fields = ["apn", "situs_address", "created_at"]
    ordering = ["apn"]

    def get_serializer_class(self):
        if self.action == "retrieve":
            return serializers.ParcelDetailSerializer
        return super().get_serializer_class()

    def get_queryset(self):
        return selectors.parcel_list_for_api(self.request.user)

    def find_object(self, pk):
        if self.action != "retrieve":
            return super().find_object(pk)
        return selectors.parcel_detail(self.request.user, pk)

    def create_record(self, **data):
        return services.parcel_create(**data)

    def update_record(self, record, **data):
        return services.parcel_update(parcel=record, **data)


# --- Parties ------------------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(summary="List parties (Town staff only)"),
    retrieve=extend_schema(summary="One party (Town staff only)"),
    create=extend_schema(summary="Add a party"),
    update=extend_schema(summary="Change a party"),
    partial_update=extend_schema(summary="Change some of a party's fields"),
)
class PartyViewSet(EditableRegistryViewSet):
    """Owners, operators, designees: personal data, so Town staff only (403 for anyone else)."""

    permission_classes = [permissions.IsAuthenticated, IsProgramStaff, CanEditRegistry]
    serializer_class = serializers.PartySerializer
    filterset_class = PartyFilter
    search_fields = ["name", "contact_name", "email"]
    ordering_fields = ["name", "created_at"]
    ordering = ["name", "pk"]

    def get_queryset(self):
        return selectors.parties_visible_to(self.request.user)

    def create_record(self, **data):
        return services.party_create(**data)

    def update_record(self, record, **data):
        return services.party_update(party=record, **data)


# --- Haulers ------------------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(summary="List grease haulers", description="With each hauler's vehicles."),
    retrieve=extend_schema(summary="One grease hauler"),
    create=extend_schema(summary="Register a grease hauler"),
    update=extend_schema(summary="Change a hauler"),
    partial_update=extend_schema(summary="Change some of a hauler's fields"),
)
class HaulerViewSet(EditableRegistryViewSet):
    serializer_class = serializers.HaulerSerializer
    write_serializer_class = serializers.HaulerWriteSerializer
    filterset_class = HaulerFilter
    search_fields = ["name", "state_registration_number", "licence_number"]
    ordering_fields = ["name", "created_at"]
    ordering = ["name"]
    no_delete_reason = (
        "A hauler is never deleted, so that its manifests keep their history. "
        'Mark it inactive instead: PATCH {"active": false}.'
    )

    def get_queryset(self):
        return selectors.hauler_list_for_api(self.request.user)

    def create_record(self, **data):
        return services.hauler_create(**data)

    def update_record(self, record, **data):
        return services.hauler_update(hauler=record, **data)

    @extend_schema(
        methods=["GET"],
        summary="A hauler's vehicles",
        responses=serializers.VehicleSerializer(many=True),
    )
    @extend_schema(
        methods=["POST"],
        summary="Add a vehicle to a hauler",
        request=serializers.VehicleSerializer,
        responses={201: serializers.VehicleSerializer},
    )
    @action(
        detail=True,
        methods=["get", "post"],
        serializer_class=serializers.VehicleSerializer,
        filter_backends=[],
        pagination_class=None,
    )
    def vehicles(self, request, pk=None, **kwargs):  # kwargs: the DefaultRouter's .json suffix
        hauler = self.get_object()
        if request.method == "GET":
            return Response(serializers.VehicleSerializer(hauler.vehicles.all(), many=True).data)
        form = serializers.VehicleSerializer(
            data=request.data, context={"request": request, "hauler": hauler}
        )
        form.is_valid(raise_exception=True)
        vehicle = services.vehicle_create(acting_user=request.user, hauler=hauler, **form.validated_data)
        return Response(serializers.VehicleSerializer(vehicle).data, status=status.HTTP_201_CREATED)


# --- Receiving facilities -----------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(summary="List receiving facilities"),
    retrieve=extend_schema(summary="One receiving facility"),
    create=extend_schema(summary="Register a receiving facility (E7, F5)"),
)
class FacilityViewSet(WritesThroughServices, mixins.CreateModelMixin, RegistryViewSet):
    """Where hauled FOG is delivered. Any signed-in user may read them; editors add them.

    There is no change endpoint yet: fogcontrol.registry.services has no `facility_update`.
    """

    serializer_class = serializers.FacilitySerializer
    filterset_class = FacilityFilter
    search_fields = ["name", "permit_number"]
    ordering_fields = ["name"]
    ordering = ["name"]

    def get_queryset(self):
        return selectors.facilities_visible_to(self.request.user)

    def create_record(self, **data):
        return services.facility_create(**data)
