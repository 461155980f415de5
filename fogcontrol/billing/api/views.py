"""Billing API: invoices and payments (list, read, create), an account's statement, the licence
office's hold query (Q2) and the lien list (P9). Thin: each parses, calls one service or selector."""

from __future__ import annotations

from decimal import Decimal

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, PolymorphicProxySerializer, extend_schema
from rest_framework import mixins, permissions, status
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.views import APIView

from fogcontrol.billing import selectors, services
from fogcontrol.billing.api import serializers as s
from fogcontrol.billing.filters import AccountFilter, InvoiceFilter, LienFilter, PaymentFilter
from fogcontrol.billing.roles import STEP_ROLES
from fogcontrol.core.api.views import ScopedViewSet, StaffOnly
from fogcontrol.program.selectors import town_today


class InvoiceViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """Invoices the user may see: staff all, an FSE its own, a property owner those of the FSEs on its
    parcels and its own. POST issues invoices for an account's charges (one per kind, Q1/P8/N1)."""

    serializer_class = s.InvoiceSerializer
    filterset_class = InvoiceFilter
    step_roles = {"create": STEP_ROLES["invoice"], "cancel": STEP_ROLES["cancel"]}

    def get_queryset(self):
        return selectors.invoice_list(self.request.user).prefetch_related("lines")

    @extend_schema(request=s.InvoiceIssueSerializer, responses={201: s.InvoiceSerializer(many=True)})
    def create(self, request):
        data = s.InvoiceIssueSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        issued = services.invoices_issue(acting_user=request.user, **data.validated_data)
        rows = self.get_queryset().filter(pk__in=[invoice.pk for invoice in issued]).order_by("pk")
        return Response(s.InvoiceSerializer(rows, many=True).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.InvoiceCancelSerializer, responses={200: s.InvoiceSerializer})
    @action(detail=True, methods=["post"])
    def cancel(self, request, pk=None):
        invoice = self.get_object()
        data = s.InvoiceCancelSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.invoice_cancel(
            invoice=invoice, acting_user=request.user, reason=data.validated_data["reason"]
        )
        return Response(s.InvoiceSerializer(self.get_queryset().get(pk=invoice.pk)).data)


class PaymentViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """Payments: POST records one and allocates it (oldest invoice first, or ``allocations``)."""

    serializer_class = s.PaymentSerializer
    filterset_class = PaymentFilter
    step_roles = {"create": STEP_ROLES["pay"]}

    def get_queryset(self):
        return selectors.payment_list(self.request.user).prefetch_related("allocations")

    @extend_schema(request=s.PaymentInputSerializer, responses={201: s.PaymentSerializer})
    def create(self, request):
        data = s.PaymentInputSerializer(data=request.data, context={"request": request})
        data.is_valid(raise_exception=True)
        payment = services.payment_record(acting_user=request.user, **data.validated_data)
        return Response(
            s.PaymentSerializer(self.get_queryset().get(pk=payment.pk)).data, status=status.HTTP_201_CREATED
        )


class AccountViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """Accounts (debtors) with their balance from the ledger; ``statement`` lists the entries."""

    serializer_class = s.AccountSerializer
    filterset_class = AccountFilter

    def get_queryset(self):
        return selectors.account_list(self.request.user)

    @extend_schema(
        parameters=[
            OpenApiParameter("from", OpenApiTypes.DATE, description="First day (YYYY-MM-DD)."),
            OpenApiParameter("to", OpenApiTypes.DATE, description="Last day (YYYY-MM-DD)."),
        ],
        responses={200: s.StatementSerializer},
    )
    @action(detail=True, methods=["get"])
    def statement(self, request, pk=None):
        debtor = self.get_object()
        query = s.StatementQuerySerializer(
            data={
                k: v
                for k, v in {
                    "start": request.query_params.get("from"),
                    "end": request.query_params.get("to"),
                }.items()
                if v
            }
        )
        query.is_valid(raise_exception=True)
        result = selectors.statement(debtor, **query.validated_data)
        return Response(s.StatementSerializer(result).data)


class LicenceHoldView(StaffOnly, APIView):
    """Q2: the business licences held for a delinquent debt. With ``?licence=`` the licence office's
    answer for one licence: ``held``, ``amount`` and ``since``."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[OpenApiParameter("licence", OpenApiTypes.STR, description="A business licence number.")],
        # Two shapes: every hold (a list) without ?licence=, the answer for one licence with it.
        responses={
            200: PolymorphicProxySerializer(
                component_name="LicenceHoldsOrAnswer",
                serializers=[s.LicenceHoldSerializer(many=True), s.LicenceAnswerSerializer],
                resource_type_field_name=None,
                many=False,
            )
        },
    )
    def get(self, request):
        licence = request.query_params.get("licence")
        holds = selectors.licence_holds(town_today(), licence=licence)
        if licence is None:
            return Response(s.LicenceHoldSerializer(holds, many=True).data)
        hold = holds[0] if holds else None
        answer = {
            "licence": licence,
            "held": hold is not None,
            "amount": hold.amount if hold else Decimal("0.00"),
            "since": hold.since if hold else None,
        }
        return Response(s.LicenceAnswerSerializer(answer).data)


class LienViewSet(StaffOnly, mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """P9: the lien list, with the parcel, owner of record, recording and release. Two-person rule: a
    lien is asked for (``request``), approved or refused by a second, different person, and only then
    recorded (``record``)."""

    serializer_class = s.LienSerializer
    filterset_class = LienFilter
    step_roles = {
        "request_approval": STEP_ROLES["lien"],
        "approve": STEP_ROLES["approve_lien"],
        "refuse": STEP_ROLES["approve_lien"],
        "record": STEP_ROLES["lien"],
    }

    def get_queryset(self):
        return selectors.lien_list(self.request.user)

    def _answer(self, lien):
        return Response(s.LienSerializer(self.get_queryset().get(pk=lien.pk)).data)

    @extend_schema(request=s.LienRequestSerializer, responses={200: s.LienSerializer})
    @action(detail=True, methods=["post"], url_path="request")
    def request_approval(self, request, pk=None):
        """Ask for the lien to be recorded: nothing is recorded until a second person approves."""
        data = s.LienRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return self._answer(
            services.lien_request(acting_user=request.user, lien=self.get_object(), **data.validated_data)
        )

    @extend_schema(request=s.LienApproveSerializer, responses={200: s.LienSerializer})
    @action(detail=True, methods=["post"])
    def approve(self, request, pk=None):
        """The second person's approval (not the one who asked: 403)."""
        return self._decide(request, s.LienApproveSerializer, approve=True)

    @extend_schema(request=s.LienRefuseSerializer, responses={200: s.LienSerializer})
    @action(detail=True, methods=["post"])
    def refuse(self, request, pk=None):
        """The second person's refusal, with the reason: nothing is recorded."""
        return self._decide(request, s.LienRefuseSerializer, approve=False)

    def _decide(self, request, serializer_class, *, approve: bool):
        lien = self.get_object()  # first: a malformed or outside id is a 404, whatever the body
        data = serializer_class(data=request.data)
        data.is_valid(raise_exception=True)
        return self._answer(
            services.lien_decide(acting_user=request.user, lien=lien, approve=approve, **data.validated_data)
        )

    @extend_schema(request=s.LienRecordSerializer, responses={200: s.LienSerializer})
    @action(detail=True, methods=["post"])
    def record(self, request, pk=None):
        """P9: the County Recorder's recording of an approved lien (409 before the approval)."""
        lien = self.get_object()  # first: a malformed or outside id is a 404, whatever the body
        data = s.LienRecordSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return self._answer(services.lien_record(acting_user=request.user, lien=lien, **data.validated_data))
