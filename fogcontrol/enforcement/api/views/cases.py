"""Cases API: `GET/POST /api/v1/enforcement/cases/`, one case with its ``steps`` and ``next_due``,
and the steps this app records: notices of violation, citations (P2), compliance schedule agreements
(H1-H4: a 409 naming H3 and the amounts while anything is owed) and referrals (P11, P4, P1)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.response import Response

from fogcontrol.core.api.views import ScopedViewSet
from fogcontrol.enforcement.actions import case_actions
from fogcontrol.enforcement.api.serializers import (
    AgreementCreateSerializer,
    CaseCreateSerializer,
    CaseDetailSerializer,
    CaseSerializer,
    CitationCreateSerializer,
    CreatedSerializer,
    H3RefusalSerializer,
    NoticeOfViolationCreateSerializer,
    ReferralCreateSerializer,
)
from fogcontrol.enforcement.filters import CaseFilter
from fogcontrol.enforcement.roles import ENFORCEMENT_OFFICERS
from fogcontrol.enforcement.selectors import cases as selectors
from fogcontrol.enforcement.selectors.steps import case_timeline, next_due
from fogcontrol.enforcement.services import steps as step_services
from fogcontrol.enforcement.services.cases import case_open
from fogcontrol.enforcement.services.steps import OFFICERS_ONLY, AmountsOwed
from fogcontrol.program.selectors import town_today

STEP = (ENFORCEMENT_OFFICERS, OFFICERS_ONLY)


def _violations(case, ids):
    by_id = {v.pk: v for v in case.violations.all()}
    return [by_id.get(pk) or _Stranger(pk) for pk in ids]


class _Stranger:
    """An id that is not one of the case's violations: the service refuses it with a 400."""

    def __init__(self, pk):
        self.pk = pk


class CaseViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """Cases the user may see: staff all, an FSE its own (without the internal notes)."""

    serializer_class = CaseSerializer
    filterset_class = CaseFilter
    step_roles = {
        "create": STEP,
        "notices_of_violation": STEP,
        "citations": STEP,
        "compliance_agreements": STEP,
        "referrals": STEP,
    }

    def get_queryset(self):
        if self.action == "list":
            return selectors.case_list(self.request.user)
        return selectors.cases_visible_to(self.request.user).select_related("establishment")

    def _detail(self, case, *, code=status.HTTP_200_OK):
        today = town_today()
        case = selectors.case_detail(self.request.user, case.pk)
        steps = case_timeline(case, today=today)
        context = {
            "request": self.request,
            "today": today,
            "steps": steps,
            "next_due": next_due(steps),
            "actions": case_actions(self.request.user, case, today=today),
        }
        return Response(CaseDetailSerializer(case, context=context).data, status=code)

    @extend_schema(responses={200: CaseDetailSerializer})
    def retrieve(self, request, pk=None):
        return self._detail(self.get_object())

    @extend_schema(request=CaseCreateSerializer, responses={201: CaseDetailSerializer})
    def create(self, request):
        serializer = CaseCreateSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        establishment = data["establishment"]
        wanted = data.pop("violations")
        found = {v.pk: v for v in establishment.violations.filter(pk__in=wanted)}
        missing = [pk for pk in wanted if pk not in found]
        if missing:
            return Response(
                {
                    "violations": [
                        f"No violation of this establishment with id {', '.join(map(str, missing))}."
                    ]
                },
                status=status.HTTP_400_BAD_REQUEST,
            )
        case = case_open(
            acting_user=request.user,
            establishment=establishment,
            summary=data["summary"],
            internal_notes=data["internal_notes"],
            opened_on=data.get("opened_on") or town_today(),
            violations=[found[pk] for pk in wanted],
        )
        return self._detail(case, code=status.HTTP_201_CREATED)

    def _step(self, serializer_class, service, build):
        case = selectors.case_detail(self.request.user, self.get_object().pk)
        serializer = serializer_class(data=self.request.data)
        serializer.is_valid(raise_exception=True)
        record = service(
            acting_user=self.request.user,
            case=case,
            today=town_today(),
            **build(case, dict(serializer.validated_data)),
        )
        return Response({"id": record.pk, "kind": type(record).__name__}, status=status.HTTP_201_CREATED)

    @extend_schema(request=NoticeOfViolationCreateSerializer, responses={201: CreatedSerializer})
    @action(detail=True, methods=["post"], url_path="notices-of-violation")
    def notices_of_violation(self, request, pk=None):
        def build(case, data):
            data["violations"] = _violations(case, data["violations"])
            return data

        return self._step(NoticeOfViolationCreateSerializer, step_services.notice_of_violation_issue, build)

    @extend_schema(request=CitationCreateSerializer, responses={201: CreatedSerializer})
    @action(detail=True, methods=["post"])
    def citations(self, request, pk=None):
        def build(case, data):
            data["violation"] = _violations(case, [data["violation"]])[0]
            return data

        return self._step(CitationCreateSerializer, step_services.citation_issue, build)

    @extend_schema(
        request=AgreementCreateSerializer,
        responses={
            201: CreatedSerializer,
            409: OpenApiResponse(H3RefusalSerializer, description="H3: amounts owed to the Town are unpaid."),
        },
    )
    @action(detail=True, methods=["post"], url_path="compliance-agreements")
    def compliance_agreements(self, request, pk=None):
        try:
            return self._step(
                AgreementCreateSerializer, step_services.compliance_agreement_make, lambda case, data: data
            )
        except AmountsOwed as refusal:
            body = {
                "detail": str(refusal),
                "provision": "H3",
                "amounts": [
                    {"label": o.label, "amount": f"{o.amount:.2f}", "provision": o.provision}
                    for o in refusal.owed
                ],
                "total": f"{refusal.total:.2f}",
            }
            return Response(body, status=status.HTTP_409_CONFLICT)

    @extend_schema(request=ReferralCreateSerializer, responses={201: CreatedSerializer})
    @action(detail=True, methods=["post"])
    def referrals(self, request, pk=None):
        def build(case, data):
            data["violations"] = _violations(case, data["violations"])
            return data

        return self._step(ReferralCreateSerializer, step_services.referral_record, build)
