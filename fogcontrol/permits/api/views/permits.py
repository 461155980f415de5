"""Permits in the API: permits and their versions and PDFs, renewal, change, modification (B7),
suspension and revocation; the renewals due, modifications and notices lists.
"""

from __future__ import annotations

import datetime as dt

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, renderers, status
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError as DRFValidationError
from rest_framework.response import Response

from fogcontrol.core.api.renderers import PDFRenderer
from fogcontrol.core.api.views import StaffOnly
from fogcontrol.core.views import staff_only
from fogcontrol.permits import selectors, services
from fogcontrol.permits.api import order_serializers as o
from fogcontrol.permits.api import serializers as s
from fogcontrol.permits.api.views.base import CONFLICT, PermitsViewSet, pdf_response
from fogcontrol.permits.filters import ModificationFilter, NoticeFilter, PermitFilter
from fogcontrol.permits.pdf import LANGUAGES, notice_language, notice_pdf, permit_language, permit_pdf
from fogcontrol.permits.roles import STEP_ROLES
from fogcontrol.permits.services.common import town_contacts
from fogcontrol.program.selectors import ruleset_on, town_today

# --- Permits -----------------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        summary="List permits", description="Staff see all; an FSE its own; a hauler its customers'."
    ),
    retrieve=extend_schema(summary="One permit with its versions, modifications and timeline"),
)
class PermitViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, PermitsViewSet):
    step_roles = {
        "renew": STEP_ROLES["renew"],
        "change": STEP_ROLES["change"],
        "modify": STEP_ROLES["modify"],
        "suspend": STEP_ROLES["apply_order"],
        "reinstate": STEP_ROLES["apply_order"],
        "revoke": STEP_ROLES["apply_order"],
    }
    filterset_class = PermitFilter
    search_fields = ["number", "establishment__business_name"]
    ordering_fields = ["valid_until", "first_issued_on", "number", "status"]
    ordering = ["-first_issued_on", "-pk"]

    def get_queryset(self):
        if self.action == "retrieve":
            return selectors.permits_visible_to(self.request.user)
        return selectors.permit_list(self.request.user)

    def get_serializer_class(self):
        return s.PermitSerializer if self.action == "retrieve" else s.PermitListSerializer

    def find_object(self, pk):
        return selectors.permit_detail(self.request.user, pk)

    def retrieve(self, request, *args, **kwargs):
        return Response(s.PermitSerializer(self.get_object(), context=self.get_serializer_context()).data)

    def application_response(self, application):
        fresh = selectors.application_detail(self.request.user, application.pk)
        return Response(
            s.ApplicationSerializer(fresh, context=self.get_serializer_context()).data, status=201
        )

    def permit_response(self, permit):
        fresh = selectors.permit_detail(self.request.user, permit.pk)
        return Response(s.PermitSerializer(fresh, context=self.get_serializer_context()).data)

    @extend_schema(
        summary="The permit's versions, newest first (old ones are kept)",
        responses={200: s.PermitVersionSerializer(many=True)},
    )
    # Every version in one answer, not a page: no paginator (the schema then says so too).
    @action(detail=True, methods=["get"], pagination_class=None)
    def versions(self, request, pk=None):
        permit = self.get_object()
        return Response(s.PermitVersionSerializer(permit.versions.all(), many=True).data)

    @extend_schema(
        summary="The permit as a PDF",
        parameters=[
            OpenApiParameter("version", int, description="A version number; default the one in force"),
            OpenApiParameter(
                "language",
                str,
                enum=list(LANGUAGES),
                description="en or es. Default: the user's preferred language; for staff, the FSE contact's.",
            ),
        ],
        responses={(200, "application/pdf"): OpenApiTypes.BINARY},
    )
    @action(detail=True, methods=["get"], renderer_classes=[renderers.JSONRenderer, PDFRenderer])
    def pdf(self, request, pk=None):
        permit = self.get_object()
        number = request.query_params.get("version") or permit.version_number
        try:
            number = int(number)
        except ValueError:
            raise DRFValidationError({"version": ["Give a version number, e.g. 1."]}) from None
        version = selectors.permit_version_detail(request.user, permit.pk, number)
        language = request.query_params.get("language")
        if language is None:
            language = permit_language(request.user, permit.establishment)
        elif language not in LANGUAGES:
            raise DRFValidationError({"language": ["Give en or es."]})
        return pdf_response(permit_pdf(version, language=language), f"{permit.number}-v{version.number}.pdf")

    @extend_schema(
        summary="Start the annual renewal (B6), pre-filled",
        request=None,
        responses={201: s.ApplicationSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def renew(self, request, pk=None):
        return self.application_response(
            services.renewal_application_start(permit=self.get_object(), acting_user=request.user)
        )

    @extend_schema(
        summary="Open a new application on a change of ownership, food types or operations (B8)",
        request=s.ChangeInputSerializer,
        responses={201: s.ApplicationSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def change(self, request, pk=None):
        permit = self.get_object()
        return self.application_response(
            services.change_application_start(
                permit=permit, acting_user=request.user, **self.input(s.ChangeInputSerializer)
            )
        )

    @extend_schema(
        summary="Propose a change of service frequency or conditions (B7)",
        description="Notifies the permittee; takes effect no sooner than the B7 notice allows, then the permit is reissued.",
        request=s.ModifyInputSerializer,
        responses={201: s.ModificationSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def modify(self, request, pk=None):
        permit = self.get_object()
        modification = services.permit_modification_propose(
            permit=permit, acting_user=request.user, **self.input(s.ModifyInputSerializer)
        )
        return Response(s.ModificationSerializer(modification).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Suspend the permit by a recorded order (L5, M1)",
        description="Name a final suspension order (L1-L6, or a temporary suspension, L3) or an emergency "
        "order (M1) recorded at /api/v1/permit-orders/. Without one: 409, naming the process required.",
        request=o.OrderApplySerializer,
        responses={200: s.PermitSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def suspend(self, request, pk=None):
        return self.permit_response(
            services.permit_suspend(
                permit=self.get_object(), acting_user=request.user, **self.input(o.OrderApplySerializer)
            )
        )

    @extend_schema(
        summary="Reinstate a suspended permit by a recorded reinstatement order",
        request=o.OrderApplySerializer,
        responses={200: s.PermitSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def reinstate(self, request, pk=None):
        return self.permit_response(
            services.permit_reinstate(
                permit=self.get_object(), acting_user=request.user, **self.input(o.OrderApplySerializer)
            )
        )

    @extend_schema(
        summary="Revoke the permit by a final recorded order (L5, L6)",
        description="Without a final revocation order recorded at /api/v1/permit-orders/: 409.",
        request=o.OrderApplySerializer,
        responses={200: s.PermitSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def revoke(self, request, pk=None):
        return self.permit_response(
            services.permit_revoke(
                permit=self.get_object(), acting_user=request.user, **self.input(o.OrderApplySerializer)
            )
        )

    @extend_schema(
        summary="Active FSEs without a permit in force (B1)",
        parameters=[OpenApiParameter("on", OpenApiTypes.DATE, description="Default today")],
        responses={200: s.NoncompliantSerializer(many=True)},
    )
    @action(
        detail=False, methods=["get"], url_path="without-permit", filterset_class=None, filter_backends=[]
    )
    def without_permit(self, request):
        staff_only(request.user)  # a staff list, as on /permits/without-permit/
        on = _date_param(request, "on") or town_today()
        page = self.paginate_queryset(selectors.establishments_without_permit(request.user, on=on))
        return self.get_paginated_response(s.NoncompliantSerializer(page, many=True).data)


def _date_param(request, name):
    raw = request.query_params.get(name)
    if not raw:
        return None
    try:
        return dt.date.fromisoformat(raw)
    except ValueError:
        raise DRFValidationError({name: ["Give a date as YYYY-MM-DD."]}) from None


@extend_schema_view(
    list=extend_schema(
        summary="Permits due for renewal (B6)",
        description="Permits whose term ends within `within_days` (default: the ruleset's renewal window) "
        "or has ended; `renewal_open` says whether a renewal application is in progress.",
        parameters=[OpenApiParameter("within_days", int), OpenApiParameter("on", OpenApiTypes.DATE)],
    )
)
class RenewalViewSet(StaffOnly, mixins.ListModelMixin, PermitsViewSet):
    """A staff list, as on /permits/renewals/: outside users are told it does not exist (404)."""

    serializer_class = s.RenewalSerializer
    filter_backends: list = []

    def get_queryset(self):
        on = _date_param(self.request, "on") or town_today()
        raw = self.request.query_params.get("within_days")
        within = ruleset_on(on).permit_renewal_window_days
        if raw:
            try:
                within = int(raw)
            except ValueError:
                raise DRFValidationError({"within_days": ["Give a whole number of days, e.g. 60."]}) from None
            if not 0 <= within <= 730:
                raise DRFValidationError({"within_days": ["Give a number of days from 0 to 730."]})
        return selectors.renewal_list(self.request.user, on=on, within_days=within)


@extend_schema_view(
    list=extend_schema(summary="Suspension, revocation and reinstatement orders (L1-L6, M1-M3)"),
    retrieve=extend_schema(summary="One order, with the working of its limits"),
    create=extend_schema(
        summary="Record an order with its process (FOG Manager)",
        description="Suspension or revocation: `grounds` (L1), `facts`, `notice_mailed_on` and "
        "`certified_mail_number` (L2), `hearing_on` within the L2 window and `hearing_place`. Emergency "
        "suspension: `emergency_order_on`, `determined_by`, `hearing_on` within the M3 limit. "
        "Reinstatement: `ends_order`. Apply it with POST /api/v1/permits/{id}/suspend|revoke|reinstate/.",
        request=o.PermitOrderInputSerializer,
        responses={201: o.PermitOrderSerializer, 409: CONFLICT},
    ),
)
class PermitOrderViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, PermitsViewSet
):
    step_roles = {
        "create": STEP_ROLES["record_order"],
        "decide": STEP_ROLES["decide_order"],
        "appeal": STEP_ROLES["decide_order"],
    }
    serializer_class = o.PermitOrderSerializer
    filterset_fields = ["permit", "kind"]
    ordering = ["-recorded_at", "-pk"]

    def get_queryset(self):
        return selectors.orders_visible_to(self.request.user)

    def create(self, request, *args, **kwargs):
        order = services.permit_order_record(
            acting_user=request.user, **self.input(o.PermitOrderInputSerializer)
        )
        return Response(o.PermitOrderSerializer(self.get_queryset().get(pk=order.pk)).data, status=201)

    @extend_schema(
        summary="Record the hearing officer's written decision and order (L3, L4; M3)",
        request=o.DecisionInputSerializer,
        responses={200: o.PermitOrderSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def decide(self, request, pk=None):
        order = services.permit_order_decide(
            order=self.get_object(), acting_user=request.user, **self.input(o.DecisionInputSerializer)
        )
        return Response(o.PermitOrderSerializer(order).data)

    @extend_schema(
        summary="Record where the appeal to the Town Council stands (L6)",
        request=o.AppealInputSerializer,
        responses={200: o.PermitOrderSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def appeal(self, request, pk=None):
        order = services.permit_order_record_appeal(
            order=self.get_object(), acting_user=request.user, **self.input(o.AppealInputSerializer)
        )
        return Response(o.PermitOrderSerializer(order).data)


@extend_schema_view(
    list=extend_schema(summary="Permit modifications (B7)"),
    retrieve=extend_schema(summary="One modification"),
)
class ModificationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, PermitsViewSet):
    step_roles = {"withdraw": STEP_ROLES["withdraw_modification"]}
    serializer_class = s.ModificationSerializer
    filterset_class = ModificationFilter
    ordering = ["-effective_on", "-pk"]

    def get_queryset(self):
        return selectors.modification_list(self.request.user)

    @extend_schema(
        summary="Withdraw a proposed change before it takes effect",
        request=s.ReasonSerializer,
        responses={200: s.ModificationSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def withdraw(self, request, pk=None):
        modification = services.permit_modification_withdraw(
            modification=self.get_object(), acting_user=request.user, **self.input(s.ReasonSerializer)
        )
        return Response(s.ModificationSerializer(modification).data)


@extend_schema_view(
    list=extend_schema(summary="Notices sent to permittees (B7 and others)"),
    retrieve=extend_schema(summary="One notice"),
)
class NoticeViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, PermitsViewSet):
    serializer_class = s.NoticeSerializer
    filterset_class = NoticeFilter
    ordering = ["-sent_on", "-pk"]

    def get_queryset(self):
        return selectors.notices_visible_to(self.request.user)

    @extend_schema(
        summary="The notice as a printable letter (PDF)",
        responses={(200, "application/pdf"): OpenApiTypes.BINARY},
    )
    @action(detail=True, methods=["get"], renderer_classes=[renderers.JSONRenderer, PDFRenderer])
    def letter(self, request, pk=None):
        notice = self.get_object()
        return pdf_response(
            notice_pdf(
                notice,
                town_contacts(),
                language=notice_language(request.user, notice, request.query_params.get("language")),
            ),
            f"notice-{notice.pk}.pdf",
        )
