"""The program settings API: the Town profile, the holiday calendar, the ruleset versions.

Town staff read; only the FOG Manager writes (403 for other staff); anyone else gets 404, as for
any record outside their scope. Reads come from fogcontrol.program.selectors, writes go through
fogcontrol.program.services (validated, audited). Changing a version already in effect is 409.
"""

from __future__ import annotations

import datetime as dt

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, permissions, status
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.exceptions import ValidationError as DRFValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from fogcontrol.core.api.errors import Conflict
from fogcontrol.core.api.versions import VersionETag, if_match_version
from fogcontrol.core.api.views import ScopedViewSet
from fogcontrol.core.permissions import has_role
from fogcontrol.core.roles import Role
from fogcontrol.program import selectors, services
from fogcontrol.program.api import serializers


class IsProgramStaffElseNotFound(permissions.BasePermission):
    """Staff read the program's settings; anyone else is told they do not exist (404)."""

    def has_permission(self, request, view) -> bool:
        if not selectors.program_settings_visible(request.user):
            raise NotFound("Not found.")
        return True


class FogManagerWrites(permissions.BasePermission):
    """Only the FOG Manager changes the program's settings; other staff may read."""

    message = "Only the FOG Manager may change the program's settings."

    def has_permission(self, request, view) -> bool:
        return request.method in permissions.SAFE_METHODS or has_role(request.user, {Role.FOG_MANAGER})


PERMISSIONS = [permissions.IsAuthenticated, IsProgramStaffElseNotFound, FogManagerWrites]


@extend_schema_view(
    get=extend_schema(summary="The Town profile (B2, J1, J2)"),
    patch=extend_schema(summary="Change the Town profile", description="FOG Manager only."),
)
class TownProfileView(APIView):
    permission_classes = PERMISSIONS
    serializer_class = serializers.TownProfileSerializer

    def get(self, request):
        profile = selectors.town_profile_for(request.user)
        return _with_etag(Response(serializers.TownProfileSerializer(profile).data))

    def patch(self, request):
        """If-Match with the ETag read: 409 if the profile was saved since (core/api/versions.py)."""
        profile = selectors.town_profile_for(request.user)
        serializer = serializers.TownProfileSerializer(profile, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        profile = services.town_profile_update(
            acting_user=request.user, expected_version=if_match_version(request), **serializer.validated_data
        )
        return _with_etag(Response(serializers.TownProfileSerializer(profile).data))


def _with_etag(response: Response) -> Response:
    response["ETag"] = f'"{response.data["version"]}"'
    return response


def _year_param(request) -> int | None:
    raw = request.query_params.get("year")
    if raw in (None, ""):
        return None
    try:
        year = int(raw)
    except ValueError:
        year = 0
    if not services.FIRST_CALENDAR_YEAR <= year <= services.LAST_CALENDAR_YEAR:
        raise DRFValidationError(
            {
                "year": f"Give a year between {services.FIRST_CALENDAR_YEAR} and "
                f"{services.LAST_CALENDAR_YEAR}, e.g. ?year=2027."
            }
        )
    return year


@extend_schema_view(
    list=extend_schema(
        summary="Holidays and closure days",
        parameters=[OpenApiParameter("year", OpenApiTypes.INT, description="Only this year, e.g. 2027.")],
    ),
    retrieve=extend_schema(summary="One holiday or closure day"),
    create=extend_schema(summary="Close the offices on a day", description="FOG Manager only."),
    destroy=extend_schema(summary="Open the offices again on a day", description="FOG Manager only."),
)
class HolidayViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    ScopedViewSet,
):
    permission_classes = PERMISSIONS
    serializer_class = serializers.HolidaySerializer
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]
    filter_backends: list = []

    def get_queryset(self):
        if self.action == "list":
            return selectors.holiday_list(self.request.user, year=_year_param(self.request))
        return selectors.holidays_visible_to(self.request.user)

    def perform_create(self, serializer):
        serializer.instance = services.holiday_add(acting_user=self.request.user, **serializer.validated_data)

    def perform_update(self, serializer):
        holiday = serializer.instance
        values = {
            "date": holiday.date,
            "name": holiday.name,
            "kind": holiday.kind,
            **serializer.validated_data,
        }
        serializer.instance = services.holiday_update(
            acting_user=self.request.user, holiday=holiday, **values
        )

    def perform_destroy(self, instance):
        services.holiday_remove(acting_user=self.request.user, holiday=instance)

    @extend_schema(
        summary="Install a year's standard holidays",
        description="Adds the usual California municipal holidays of the year; days already on the "
        "calendar are kept. Answers with the holidays added. FOG Manager only.",
        request=serializers.InstallStandardSerializer,
        responses={201: serializers.HolidaySerializer(many=True)},
    )
    @action(detail=False, methods=["post"], url_path="install-standard", pagination_class=None)
    def install_standard(self, request):
        form = serializers.InstallStandardSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        added = services.holidays_install_standard(year=form.validated_data["year"], acting_user=request.user)
        return Response(serializers.HolidaySerializer(added, many=True).data, status=status.HTTP_201_CREATED)


@extend_schema_view(
    list=extend_schema(summary="Ruleset versions, newest first"),
    retrieve=extend_schema(summary="One ruleset version, with every value and its amendments"),
    create=extend_schema(
        summary="Create a future ruleset version",
        description="FOG Manager only. Name the adopting ordinance or resolution (`adoption_reference`) "
        "and its adoption date (`adopted_on`, today or earlier); the effective date must be after today; "
        "each value must lie within its range (400 naming the value and the range).",
    ),
    update=extend_schema(summary="Change a future version", description="409 if it is already in effect."),
    partial_update=extend_schema(summary="Change a future version", description="409 if already in effect."),
    destroy=extend_schema(summary="Withdraw a future version", description="409 if it is already in effect."),
)
class RulesetVersionViewSet(
    VersionETag,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    ScopedViewSet,
):
    permission_classes = PERMISSIONS
    serializer_class = serializers.RulesetVersionSerializer
    filter_backends: list = []

    def get_queryset(self):
        return selectors.ruleset_version_list(self.request.user)

    def get_serializer_context(self):
        context = super().get_serializer_context()
        # Read once per request: every row's "locked" is judged against the same day.
        context["today"] = selectors.town_today()
        return context

    def perform_create(self, serializer):
        data = serializer.validated_data
        serializer.instance = services.ruleset_version_create(
            acting_user=self.request.user,
            effective_from=data["effective_from"],
            label=data["label"],
            adoption_reference=data.get("adoption_reference", ""),
            adopted_on=data.get("adopted_on"),
            values=data.get("values", {}),
            notes=data.get("notes", ""),
        )

    def perform_update(self, serializer):
        try:
            serializer.instance = services.ruleset_version_update(
                acting_user=self.request.user,
                version=serializer.instance,
                # If-Match: refused with 409 if the version was saved since (core/api/versions.py).
                expected_version=if_match_version(self.request),
                **serializer.validated_data,
            )
        except services.RulesetVersionLocked as error:
            raise Conflict(str(error)) from error

    def update(self, request, *args, **kwargs):
        # Refuse a locked version before checking its input: the answer is 409 whatever was sent.
        self._refuse_if_locked(self.get_object())
        return super().update(request, *args, **kwargs)

    def perform_destroy(self, instance):
        try:
            services.ruleset_version_delete(acting_user=self.request.user, version=instance)
        except services.RulesetVersionLocked as error:
            raise Conflict(str(error)) from error

    def _refuse_if_locked(self, version):
        if services.ruleset_version_is_locked(version, today=selectors.town_today()):
            raise Conflict(services.ruleset_version_locked_reason(version))

    @extend_schema(
        summary="The rules in force on a day",
        description="Every value in force on ?on=YYYY-MM-DD (default: today in the Town) and the version "
        "that carries them; null before the first version (Chapter 10.02 as adopted).",
        parameters=[OpenApiParameter("on", OpenApiTypes.DATE, description="e.g. 2027-01-01")],
        responses=serializers.InForceSerializer,
    )
    @action(detail=False, methods=["get"], url_path="in-force")
    def in_force(self, request):
        raw = request.query_params.get("on")
        today = selectors.town_today()
        try:
            on = dt.date.fromisoformat(raw) if raw else today
        except ValueError as exc:
            raise DRFValidationError({"on": "Give the day as YYYY-MM-DD, e.g. ?on=2027-01-01."}) from exc
        version, ruleset = selectors.ruleset_in_force_for(request.user, on)
        values = ruleset.to_dict()
        context = self.get_serializer_context()
        return Response(
            {
                "on": on.isoformat(),
                "version": serializers.RulesetVersionSerializer(version, context=context).data
                if version
                else None,
                "values": values,
                "provisions": serializers.provisions_by_name(values),
            }
        )
