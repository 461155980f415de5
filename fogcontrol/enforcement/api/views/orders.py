"""The later steps of a case in the API: complaints (P5, P6), suspension notices (L1, L2), emergency
suspensions (M1-M3), penalty orders (P7-P10) and terminations of service (O1, O2). Thin: the role
first (403), then the input (400), then the services; every date comes from the rules engine."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.response import Response

from fogcontrol.core.api.errors import django_validation_detail
from fogcontrol.core.api.views import ScopedViewSet
from fogcontrol.core.roles import Role
from fogcontrol.enforcement.api import serializers_orders as s
from fogcontrol.enforcement.filters_orders import ComplaintFilter, PenaltyOrderFilter, TerminationFilter
from fogcontrol.enforcement.models import AdministrativeComplaint, NoticeOfViolation
from fogcontrol.enforcement.roles import ENFORCEMENT_OFFICERS, HEARING_RECORDERS
from fogcontrol.enforcement.selectors import orders as selectors
from fogcontrol.enforcement.selectors.cases import cases_visible_to
from fogcontrol.enforcement.services import complaints, penalties, suspensions, terminations
from fogcontrol.permits.models import PermitOrder
from fogcontrol.program.selectors import town_today

MANAGER = (frozenset({Role.FOG_MANAGER}), "Only the FOG Manager takes this step.")
OFFICERS = (ENFORCEMENT_OFFICERS, "Only the FOG Manager and inspectors issue administrative complaints.")
HEARING = (HEARING_RECORDERS, "Only the Hearing Officer or the FOG Manager records this.")


def _visible_case(user, pk):
    case = cases_visible_to(user).select_related("establishment").filter(pk=pk).first()
    if case is None:
        raise ValidationError({"case": "No such case: give the id of a case you can see."})
    return case


_DATE = {"type": "string", "format": "date"}
# A refused notice: each field with what is wrong, and the hearing window once `mailed_on` is known
# (`earliest` and `latest` again at the top when `hearing_on` falls outside it).
SUSPENSION_REFUSAL = OpenApiResponse(
    response={
        "type": "object",
        "properties": {
            "hearing_window": {
                "type": "object",
                "properties": {"earliest": _DATE, "latest": _DATE, "explanation": {"type": "string"}},
                "required": ["earliest", "latest", "explanation"],
            },
            "earliest": _DATE,
            "latest": _DATE,
        },
        "additionalProperties": {},
    },
    description="What is wrong, field by field, with the hearing window when it is known.",
)


def _cap_data(cap) -> dict:
    return s.CapSerializer(
        {"max_amount": cap.max_amount, "per_unit": cap.per_unit, "units": cap.units, "unit_label": cap.unit_label,
         "factors": list(cap.factors), "explanation": cap.explanation.text()}
    ).data  # fmt: skip


class CaseOrderStepsViewSet(ScopedViewSet):
    """Steps taken on one case: the administrative complaint, the suspension or revocation notice and
    the termination of sewer service. Registered beside the case routes (same prefix)."""

    step_roles = {"complaints": OFFICERS, "suspension_notices": MANAGER, "terminations": MANAGER}

    def get_queryset(self):
        return cases_visible_to(self.request.user).select_related("establishment")

    @extend_schema(request=s.ComplaintInputSerializer, responses={201: s.ComplaintSerializer})
    @action(detail=True, methods=["post"])
    def complaints(self, request, pk=None):
        case = self.get_object()
        data = s.ComplaintInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        complaint = complaints.complaint_serve(acting_user=request.user, case=case, **data.validated_data)
        return Response(s.ComplaintSerializer(complaint).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=s.SuspensionNoticeInputSerializer,
        responses={201: s.SuspensionNoticeSerializer, 400: SUSPENSION_REFUSAL},
        description="L1, L2: the notice of proposed suspension or revocation and its hearing. Every answer "
        "(the 400 too, once `mailed_on` is known) carries `hearing_window: {earliest, latest, explanation}`.",
    )
    @action(detail=True, methods=["post"], url_path="suspension-notices")
    def suspension_notices(self, request, pk=None):
        case = self.get_object()
        data = s.SuspensionNoticeInputSerializer(data=request.data)
        window = None
        if data.is_valid():
            values = data.validated_data
            # No mailing date yet: the window as if mailed today (the mail log's date counts it again).
            window = suspensions.hearing_window(values["mailed_on"] or town_today())
            try:
                hearing = suspensions.suspension_notice_issue(acting_user=request.user, case=case, **values)
            except ValidationError as error:
                body = django_validation_detail(error)
                body.update(hearing_window=s.WindowSerializer(window).data)
                if "hearing_on" in body:
                    body.update(earliest=window["earliest"], latest=window["latest"])
                return Response(body, status=status.HTTP_400_BAD_REQUEST)
        else:
            body = dict(data.errors)
            try:
                mailed = s.serializers.DateField().to_internal_value(request.data.get("mailed_on"))
            except s.serializers.ValidationError:
                mailed = None
            if mailed is not None:
                body["hearing_window"] = s.WindowSerializer(suspensions.hearing_window(mailed)).data
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        return Response(
            {"hearing": s.HearingSerializer(hearing).data, "permit_order": hearing.permit_order_id,
             "hearing_window": s.WindowSerializer(window).data},
            status=status.HTTP_201_CREATED,
        )  # fmt: skip

    @extend_schema(request=s.TerminationInputSerializer, responses={201: s.TerminationSerializer})
    @action(detail=True, methods=["post"])
    def terminations(self, request, pk=None):
        case = self.get_object()
        data = s.TerminationInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        order_id, notice_id = values.pop("permit_order"), values.pop("notice")
        order = (
            PermitOrder.objects.filter(pk=order_id, permit__establishment=case.establishment).first()
            if order_id
            else None
        )
        notice = NoticeOfViolation.objects.filter(pk=notice_id, case=case).first() if notice_id else None
        if order_id and order is None:
            raise ValidationError({"permit_order": "No such order on this establishment's permit."})
        if notice_id and notice is None:
            raise ValidationError({"notice": "No such notice of violation in this case."})
        termination = terminations.service_terminate(
            acting_user=request.user, case=case, permit_order=order, notice=notice, **values
        )
        return Response(s.TerminationSerializer(termination).data, status=status.HTTP_201_CREATED)


class ComplaintViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """Administrative complaints (P5, P6) the user may see, with their hearing and appeal window."""

    serializer_class = s.ComplaintSerializer
    filterset_class = ComplaintFilter
    step_roles = {"waiver": HEARING, "appeal": HEARING}

    def get_queryset(self):
        return selectors.complaint_list(self.request.user)

    @extend_schema(request=s.WaiverSerializer, responses={200: s.ComplaintSerializer})
    @action(detail=True, methods=["post"])
    def waiver(self, request, pk=None):
        complaint = self.get_object()
        data = s.WaiverSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        complaint = complaints.complaint_waive(
            acting_user=request.user, complaint=complaint, **data.validated_data
        )
        return Response(s.ComplaintSerializer(complaint).data)

    @extend_schema(request=s.ComplaintAppealSerializer, responses={200: s.ComplaintSerializer})
    @action(detail=True, methods=["post"])
    def appeal(self, request, pk=None):
        complaint = self.get_object()
        data = s.ComplaintAppealSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        complaint = complaints.complaint_appeal(
            acting_user=request.user, complaint=complaint, **data.validated_data
        )
        return Response(s.ComplaintSerializer(AdministrativeComplaint.objects.get(pk=complaint.pk)).data)


class PenaltyOrderViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """Penalty orders (P7-P10): the cap first (``cap``), then the order within it."""

    serializer_class = s.PenaltyOrderSerializer
    filterset_class = PenaltyOrderFilter
    step_roles = {"create": HEARING, "appeal": HEARING, "approve": HEARING, "refuse": HEARING}

    def get_queryset(self):
        return selectors.penalty_order_list(self.request.user)

    @extend_schema(parameters=[s.CapQuerySerializer], responses={200: s.CapSerializer})
    @action(detail=False, methods=["get"])
    def cap(self, request):
        """P7: the cap for a violation kind and its days or occurrences, with its working."""
        data = s.CapQuerySerializer(data=request.query_params)
        data.is_valid(raise_exception=True)
        return Response(_cap_data(penalties.cap_for(on=town_today(), **data.validated_data)))

    @extend_schema(
        request=s.PenaltyOrderInputSerializer,
        responses={201: s.PenaltyOrderSerializer},
        description="P7 and the two-person rule: propose a penalty order (status `proposed`). It is issued, "
        "served and billed only when a second Hearing Officer or FOG Manager approves it (`approve/`).",
    )
    def create(self, request):
        data = s.PenaltyOrderInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        case = _visible_case(request.user, values.pop("case"))
        ids = values.pop("violations")
        violations = list(case.violations.filter(pk__in=ids)) if ids else []
        if len(violations) != len(set(ids)):
            raise ValidationError({"violations": "Choose violations of this case only."})
        complaint_id = values.pop("complaint")
        complaint = case.complaints.filter(pk=complaint_id).first() if complaint_id else None
        if complaint_id and complaint is None:
            raise ValidationError({"complaint": "No such complaint in this case."})
        factors = {name: values.pop(name) for name in penalties.FACTOR_FIELDS}
        try:
            order = penalties.penalty_order_propose(
                acting_user=request.user, case=case, violations=violations, complaint=complaint, factors=factors,
                **values,
            )  # fmt: skip
        except ValidationError as error:
            body = django_validation_detail(error)
            if "amount" in body:
                cap = penalties.cap_for(
                    violation_kind=values["violation_kind"], days=values["days"], occurrences=values["occurrences"],
                    under_order=values["under_order"], on=values["proposed_on"] or town_today(),
                )  # fmt: skip
                body["cap"] = _cap_data(cap)
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        return Response(s.PenaltyOrderSerializer(order).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.PenaltyApproveSerializer, responses={200: s.PenaltyOrderSerializer})
    @action(detail=True, methods=["post"])
    def approve(self, request, pk=None):
        """Two-person rule: a second Hearing Officer or FOG Manager (not the proposer: 403) approves the
        order; it is issued on `issued_on`, its document issued and served, final unless appealed (P8)."""
        return self._decide(request, s.PenaltyApproveSerializer, approve=True)

    @extend_schema(request=s.RefusalSerializer, responses={200: s.PenaltyOrderSerializer})
    @action(detail=True, methods=["post"])
    def refuse(self, request, pk=None):
        """Two-person rule: a second Hearing Officer or FOG Manager refuses the order, with the reason;
        nothing is issued, served or billed."""
        return self._decide(request, s.RefusalSerializer, approve=False)

    def _decide(self, request, serializer_class, *, approve: bool):
        order = self.get_object()
        data = serializer_class(data=request.data)
        data.is_valid(raise_exception=True)
        order = penalties.penalty_order_decide(
            acting_user=request.user, order=order, approve=approve, **data.validated_data
        )
        return Response(s.PenaltyOrderSerializer(self.get_queryset().get(pk=order.pk)).data)

    @extend_schema(request=s.PenaltyAppealSerializer, responses={200: s.PenaltyOrderSerializer})
    @action(detail=True, methods=["post"])
    def appeal(self, request, pk=None):
        """P8, P6: the order appealed to the Town Council (not final), then upheld or overturned."""
        order = self.get_object()
        data = s.PenaltyAppealSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        order = penalties.penalty_order_appeal(acting_user=request.user, order=order, **data.validated_data)
        return Response(s.PenaltyOrderSerializer(self.get_queryset().get(pk=order.pk)).data)


class EmergencySuspensionViewSet(ScopedViewSet):
    """M1-M3: an emergency suspension order, in effect at once; the answer carries ``hearing_by`` and
    ``decision_by``."""

    step_roles = {"create": MANAGER}

    def get_queryset(self):
        return selectors.hearing_list(self.request.user).filter(kind="emergency")

    @extend_schema(request=s.EmergencyInputSerializer, responses={201: s.EmergencySerializer})
    def create(self, request):
        data = s.EmergencyInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        case = _visible_case(request.user, values.pop("case"))
        hearing = suspensions.emergency_suspension_order(acting_user=request.user, case=case, **values)
        return Response(
            {"hearing": s.HearingSerializer(hearing).data, "permit_order": hearing.permit_order_id,
             "hearing_by": hearing.latest_on, "decision_by": hearing.decision_due_on},
            status=status.HTTP_201_CREATED,
        )  # fmt: skip


class TerminationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """Terminations of sewer service (O1) with their costs owed by the discharger (O2)."""

    serializer_class = s.TerminationSerializer
    filterset_class = TerminationFilter
    step_roles = {"reinstatement": MANAGER}

    def get_queryset(self):
        return selectors.termination_list(self.request.user)

    @extend_schema(request=s.ReinstatementSerializer, responses={200: s.TerminationSerializer})
    @action(detail=True, methods=["post"])
    def reinstatement(self, request, pk=None):
        termination = self.get_object()
        data = s.ReinstatementSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        termination = terminations.service_reinstate(
            acting_user=request.user, termination=termination, **data.validated_data
        )
        return Response(
            s.TerminationSerializer(selectors.termination_list(request.user).get(pk=termination.pk)).data
        )
