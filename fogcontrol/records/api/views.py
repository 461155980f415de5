"""The FSE's records in the API: training sessions and their rosters (C4), waste-oil pickups (C2),
requirements (C5, D7, E9, F2, F3, F6), submissions with review and correction, and the obligations
list. Thin: each parses input, calls one service or selector, and answers."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers, status
from rest_framework.decorators import action
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from fogcontrol.core.api.filters import MAX_ID
from fogcontrol.core.api.views import ScopedViewSet
from fogcontrol.program.selectors import town_today
from fogcontrol.records import selectors, services
from fogcontrol.records.api import serializers as s
from fogcontrol.records.filters import (
    OilPickupFilter,
    RequirementFilter,
    SubmissionFilter,
    TrainingSessionFilter,
)
from fogcontrol.records.obligations import obligations_for
from fogcontrol.records.roles import PICKUP_STEPS, REQUIREMENT_STEPS, SUBMISSION_STEPS, TRAINING_STEPS

UPLOADS = [MultiPartParser, FormParser, JSONParser]


class TrainingSessionViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """C4 training sessions: an FSE its own, staff all. POST records one; `sign` adds a roster line."""

    filterset_class = TrainingSessionFilter
    step_roles = TRAINING_STEPS
    parser_classes = UPLOADS

    def get_queryset(self):
        if self.action == "retrieve":
            return selectors.training_session_list(self.request.user).prefetch_related(
                "attendances__employee"
            )
        return selectors.training_session_list(self.request.user)

    def get_serializer_class(self):
        return s.TrainingSessionDetailSerializer if self.action != "list" else s.TrainingSessionSerializer

    @extend_schema(
        request=s.TrainingSessionInputSerializer, responses={201: s.TrainingSessionDetailSerializer}
    )
    def create(self, request):
        data = s.TrainingSessionInputSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        session = services.training_session_record(acting_user=request.user, **data.validated_data)
        session = selectors.training_session_detail(request.user, session.pk)
        return Response(s.TrainingSessionDetailSerializer(session).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.TrainingSignInputSerializer, responses={201: s.TrainingAttendanceSerializer})
    @action(detail=True, methods=["post"])
    def sign(self, request, pk=None):
        """Add an employee to the roster with a signature drawn on screen (a PNG data URL)."""
        session = self.get_object()
        data = s.TrainingSignInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        line = services.training_attendance_sign(
            session=session, acting_user=request.user, **data.validated_data
        )
        return Response(s.TrainingAttendanceSerializer(line).data, status=status.HTTP_201_CREATED)


class OilPickupViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """C2 waste-oil pickups: an FSE its own, a hauler its company's, staff all."""

    serializer_class = s.OilPickupSerializer
    filterset_class = OilPickupFilter
    step_roles = PICKUP_STEPS
    parser_classes = UPLOADS

    def get_queryset(self):
        return selectors.oil_pickup_list(self.request.user)

    def create(self, request):
        data = s.OilPickupSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        pickup = services.oil_pickup_record(acting_user=request.user, **data.validated_data)
        return Response(s.OilPickupSerializer(pickup).data, status=status.HTTP_201_CREATED)


class RequirementViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """What the FOG Manager requires of each FSE (C5, D7, E9, F2, F3, F6)."""

    serializer_class = s.RecordRequirementSerializer
    filterset_class = RequirementFilter
    step_roles = REQUIREMENT_STEPS

    def get_queryset(self):
        return selectors.requirement_list(self.request.user)

    def create(self, request):
        data = s.RecordRequirementSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        requirement = services.requirement_set(acting_user=request.user, **data.validated_data)
        return Response(s.RecordRequirementSerializer(requirement).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.RecordRequirementEndSerializer, responses={200: s.RecordRequirementSerializer})
    @action(detail=True, methods=["post"])
    def end(self, request, pk=None):
        """Lift the requirement: nothing is owed after `ends_on`."""
        requirement = self.get_object()
        data = s.RecordRequirementEndSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        requirement = services.requirement_end(
            requirement=requirement, acting_user=request.user, **data.validated_data
        )
        return Response(s.RecordRequirementSerializer(requirement).data)


class SubmissionViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """Submissions (copies of record) with their review; `review` (staff) and `correct` (the FSE)."""

    serializer_class = s.RecordSubmissionSerializer
    filterset_class = SubmissionFilter
    step_roles = SUBMISSION_STEPS
    parser_classes = UPLOADS

    def get_queryset(self):
        return selectors.submission_list(self.request.user).order_by("-received_at", "-pk")

    def create(self, request):
        data = s.RecordSubmissionSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        values = data.validated_data
        submission = services.submission_submit(
            requirement=values["requirement"],
            uploaded_file=values["file"],
            period_number=values.get("period_number"),
            note=values.get("note", ""),
            acting_user=request.user,
        )
        return Response(
            s.RecordSubmissionSerializer(submission, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(request=s.RecordReviewInputSerializer, responses={200: s.RecordSubmissionSerializer})
    @action(detail=True, methods=["post"])
    def review(self, request, pk=None):
        """Staff: accepted, or needs correction with the reason."""
        submission = self.get_object()
        data = s.RecordReviewInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.submission_review(submission=submission, acting_user=request.user, **data.validated_data)
        return Response(
            s.RecordSubmissionSerializer(
                selectors.submission_detail(request.user, submission.pk), context={"request": request}
            ).data
        )

    @extend_schema(request=s.RecordCorrectionInputSerializer, responses={201: s.RecordSubmissionSerializer})
    @action(detail=True, methods=["post"])
    def correct(self, request, pk=None):
        """The FSE's correction: a new copy of record linked to this one, which stays as it was."""
        original = self.get_object()
        data = s.RecordCorrectionInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        correction = services.submission_correct(
            original=original,
            uploaded_file=data.validated_data["file"],
            note=data.validated_data["note"],
            acting_user=request.user,
        )
        return Response(
            s.RecordSubmissionSerializer(correction, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )


class ObligationsView(APIView):
    """`GET /api/v1/establishments/{id}/obligations/?on=YYYY-MM-DD`: everything the FSE owes, late
    first, each with kind, due_on, status, provision and explanation. Outside the scope: 404."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter("on", str, description="The day to judge on (YYYY-MM-DD); today if left out.")
        ],
        responses={200: s.EstablishmentObligationSerializer(many=True)},
    )
    def get(self, request, pk: str):
        try:
            if not pk.isdigit() or int(pk) > MAX_ID:
                raise ValueError(pk)
            establishment = selectors.establishment_for(request.user, int(pk))
        except (ObjectDoesNotExist, ValueError) as missing:
            raise Http404("No such establishment.") from missing
        on = town_today()
        if request.query_params.get("on"):
            field = serializers.DateField()
            try:
                on = field.to_internal_value(request.query_params["on"])
            except serializers.ValidationError as bad:
                raise serializers.ValidationError({"on": bad.detail}) from bad
        items = obligations_for(establishment, on=on)
        return Response(s.EstablishmentObligationSerializer(items, many=True).data)
