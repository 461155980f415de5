"""Findings API: `GET /api/v1/findings/?establishment=&open=true`, one finding, and closing one."""

from drf_spectacular.utils import extend_schema
from rest_framework import mixins
from rest_framework.decorators import action
from rest_framework.response import Response

from fogcontrol.core.api.views import ScopedViewSet
from fogcontrol.core.permissions import require_role
from fogcontrol.findings import selectors, services
from fogcontrol.findings.api.serializers import FindingCloseSerializer, FindingSerializer
from fogcontrol.findings.filters import FindingFilter
from fogcontrol.findings.roles import FINDING_RECORDERS


class FindingViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """Findings the user may see: staff all, an FSE its own establishments', a property owner those
    on its parcels."""

    serializer_class = FindingSerializer
    filterset_class = FindingFilter

    def get_queryset(self):
        return selectors.finding_list(self.request.user)

    @extend_schema(request=FindingCloseSerializer, responses={200: FindingSerializer})
    @action(detail=True, methods=["post"])
    def close(self, request, pk=None):
        finding = self.get_object()
        # Who may close comes before what was sent: a 403 for the role, then a 400 for the input.
        require_role(request.user, FINDING_RECORDERS, "Only the FOG Manager and inspectors close findings.")
        serializer = FindingCloseSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        finding = services.finding_close(
            finding=finding, acting_user=request.user, **serializer.validated_data
        )
        return Response(FindingSerializer(finding).data)
