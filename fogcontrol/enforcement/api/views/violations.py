"""Violations API: `GET/POST /api/v1/violations/` (filters establishment, open, provision), one
violation, and curing it."""

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.response import Response

from fogcontrol.core.api.views import ScopedViewSet
from fogcontrol.enforcement.api.serializers import (
    ViolationCreateSerializer,
    ViolationCureSerializer,
    ViolationSerializer,
)
from fogcontrol.enforcement.filters import ViolationFilter
from fogcontrol.enforcement.roles import ENFORCEMENT_OFFICERS
from fogcontrol.enforcement.selectors import violations as selectors
from fogcontrol.enforcement.services.violations import OFFICERS_ONLY, violation_cure, violation_open
from fogcontrol.program.selectors import town_today


class ViolationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """Violations the user may see: staff all, an FSE its own establishments', a property owner those
    on its parcels. Each with ``days`` counted per P3 and the explanation."""

    serializer_class = ViolationSerializer
    filterset_class = ViolationFilter
    step_roles = {
        "create": (ENFORCEMENT_OFFICERS, OFFICERS_ONLY),
        "cure": (ENFORCEMENT_OFFICERS, OFFICERS_ONLY),
    }

    def get_queryset(self):
        return selectors.violation_list(self.request.user)

    def get_serializer_context(self):
        return {**super().get_serializer_context(), "today": town_today()}

    @extend_schema(request=ViolationCreateSerializer, responses={201: ViolationSerializer})
    def create(self, request):
        serializer = ViolationCreateSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        violation = violation_open(acting_user=request.user, **serializer.validated_data)
        return Response(
            ViolationSerializer(violation, context=self.get_serializer_context()).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(request=ViolationCureSerializer, responses={200: ViolationSerializer})
    @action(detail=True, methods=["post"])
    def cure(self, request, pk=None):
        violation = self.get_object()
        serializer = ViolationCureSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        violation = violation_cure(acting_user=request.user, violation=violation, **serializer.validated_data)
        return Response(ViolationSerializer(violation, context=self.get_serializer_context()).data)
