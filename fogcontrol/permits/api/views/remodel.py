"""Remodel notices in the API (G1, G2): filed by the FSE, plans reviewed by staff."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from fogcontrol.permits import selectors, services
from fogcontrol.permits.api import serializers as s
from fogcontrol.permits.api.views.base import CONFLICT, PermitsViewSet
from fogcontrol.permits.filters import RemodelNoticeFilter
from fogcontrol.permits.roles import STEP_ROLES


@extend_schema_view(
    list=extend_schema(summary="Remodel and expansion notices (G1, G2)"),
    retrieve=extend_schema(summary="One remodel notice with its plan review"),
    create=extend_schema(
        summary="File the 60-day notice (G1)",
        request=s.RemodelNoticeInputSerializer,
        responses={201: s.RemodelNoticeSerializer},
    ),
)
class RemodelNoticeViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, PermitsViewSet
):
    step_roles = {
        "create": STEP_ROLES["remodel"],
        "plans": STEP_ROLES["remodel"],
        "decide": STEP_ROLES["decide_plans"],
    }
    serializer_class = s.RemodelNoticeSerializer
    filterset_class = RemodelNoticeFilter
    ordering = ["-filed_on", "-pk"]

    def get_queryset(self):
        return selectors.remodel_notices_visible_to(self.request.user)

    def create(self, request, *args, **kwargs):
        notice = services.remodel_notice_file(
            acting_user=request.user, **self.input(s.RemodelNoticeInputSerializer)
        )
        return Response(s.RemodelNoticeSerializer(notice).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Submit plans for review, with the fee (G2)",
        request={"multipart/form-data": s.PlansInputSerializer},
        responses={200: s.RemodelNoticeSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"], parser_classes=[MultiPartParser, FormParser])
    def plans(self, request, pk=None):
        notice = services.remodel_plans_submit(
            notice=self.get_object(), acting_user=request.user, **self.input(s.PlansInputSerializer)
        )
        return Response(s.RemodelNoticeSerializer(notice).data)

    @extend_schema(
        summary="Approve the plans or require revisions (G2)",
        request=s.PlanDecisionSerializer,
        responses={200: s.RemodelNoticeSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def decide(self, request, pk=None):
        notice = services.remodel_plan_review_decide(
            notice=self.get_object(), acting_user=request.user, **self.input(s.PlanDecisionSerializer)
        )
        return Response(s.RemodelNoticeSerializer(notice).data)
