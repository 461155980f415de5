"""Hearings in the API: the list and one hearing (with its L4 / M3 decision date), continuances (L3),
the hearing officer's decision, and the L6 appeal of a suspension or revocation decision."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.response import Response

from fogcontrol.core.api.views import ScopedViewSet
from fogcontrol.enforcement.api import serializers_orders as s
from fogcontrol.enforcement.api.views.orders import HEARING, MANAGER
from fogcontrol.enforcement.filters_orders import HearingFilter
from fogcontrol.enforcement.selectors import orders as selectors
from fogcontrol.enforcement.services import hearings, suspensions


class HearingViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """Hearings the user may see: staff all, an FSE those of its own cases."""

    serializer_class = s.HearingSerializer
    filterset_class = HearingFilter
    step_roles = {"continuances": HEARING, "decision": HEARING, "appeal": MANAGER}

    def get_queryset(self):
        return selectors.hearing_list(self.request.user)

    def _fresh(self, pk):
        return s.HearingSerializer(selectors.hearing_list(self.request.user).get(pk=pk)).data

    @extend_schema(request=s.ContinuanceInputSerializer, responses={201: s.HearingSerializer})
    @action(detail=True, methods=["post"])
    def continuances(self, request, pk=None):
        """L3: continue the hearing to ``new_date``; refused (400, naming L3) past the 60-day total."""
        hearing = self.get_object()
        data = s.ContinuanceInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        hearings.hearing_continue(acting_user=request.user, hearing=hearing, **data.validated_data)
        return Response(self._fresh(hearing.pk), status=status.HTTP_201_CREATED)

    @extend_schema(request=s.HearingDecisionInputSerializer, responses={200: s.HearingSerializer})
    @action(detail=True, methods=["post"])
    def decision(self, request, pk=None):
        hearing = self.get_object()
        data = s.HearingDecisionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        hearings.hearing_decide(acting_user=request.user, hearing=hearing, **data.validated_data)
        return Response(self._fresh(hearing.pk))

    @extend_schema(request=s.SuspensionAppealSerializer, responses={200: s.HearingSerializer})
    @action(detail=True, methods=["post"])
    def appeal(self, request, pk=None):
        """L6: where the appeal stands; a final suspension or revocation is applied to the permit."""
        hearing = self.get_object()
        data = s.SuspensionAppealSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        suspensions.suspension_appeal_record(acting_user=request.user, hearing=hearing, **data.validated_data)
        return Response(self._fresh(hearing.pk))
