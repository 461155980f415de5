"""The permits API (/api/v1/): applications, permits and their versions, renewals, modifications,
notices, remodel notices, the fee schedule and fees owed.

Thin views. Reads come from fogcontrol.permits.selectors, scoped to the user (outside the scope:
404). Writes and state changes are permits services: an illegal transition answers 409 with the
reason, a bad field 400 naming it, an action the user's role may not take 403.
"""

from __future__ import annotations

import datetime as dt

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, permissions, renderers, status
from rest_framework.decorators import action
from rest_framework.exceptions import MethodNotAllowed
from rest_framework.exceptions import ValidationError as DRFValidationError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.viewsets import GenericViewSet

from fogcontrol.api.errors import Conflict
from fogcontrol.permits import selectors, services
from fogcontrol.permits.api import serializers as s
from fogcontrol.permits.filters import ApplicationFilter, PermitFilter, RemodelNoticeFilter
from fogcontrol.permits.models import ApplicationKind
from fogcontrol.permits.pdf import notice_pdf, permit_pdf
from fogcontrol.permits.services.common import town_contacts
from fogcontrol.permits.states import TransitionNotAllowed
from fogcontrol.program.selectors import ruleset_on, town_today

CONFLICT = OpenApiResponse(description="The record's state does not allow this; the reason is given.")


class PDFRenderer(renderers.BaseRenderer):
    """Lets a client ask for `Accept: application/pdf`; errors still come back as JSON text."""

    media_type = "application/pdf"
    format = "pdf"
    charset = None

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, bytes):
            return data
        return renderers.JSONRenderer().render(data)


def pdf_response(data: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


class PermitsViewSet(GenericViewSet):
    """Shared plumbing: the service's refusals become 409; nothing is deleted."""

    permission_classes = [permissions.IsAuthenticated]

    def handle_exception(self, exc):
        if isinstance(exc, TransitionNotAllowed):
            exc = Conflict(str(exc))
        return super().handle_exception(exc)

    def http_method_not_allowed(self, request, *args, **kwargs):
        if request.method == "DELETE":
            raise MethodNotAllowed(
                "DELETE",
                detail="Permit records are not deleted: withdraw an application or revoke a permit instead.",
            )
        return super().http_method_not_allowed(request, *args, **kwargs)

    def input(self, serializer_class, **kwargs):
        form = serializer_class(data=self.request.data, context=self.get_serializer_context(), **kwargs)
        form.is_valid(raise_exception=True)
        return form.validated_data


# --- Applications ------------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        summary="List permit applications (the staff work queue)",
        description="Filter by `status` for the work queue. Staff see all; an FSE its own.",
    ),
    retrieve=extend_schema(summary="One application, with its fixtures, documents, thread, timeline and fee"),
    create=extend_schema(
        summary="Open a draft application (B3, B4)",
        description="`kind` new, renewal (name `previous_permit`; pre-filled from it, B6) or change "
        "(B8, give `change_reasons`). Fields left out are pre-filled from the registry.",
        request=s.ApplicationWriteSerializer,
        responses={201: s.ApplicationSerializer},
    ),
    partial_update=extend_schema(
        summary="Change a draft",
        description="Only drafts change; a submitted application is a copy of record (409).",
        request=s.ApplicationWriteSerializer,
        responses={200: s.ApplicationSerializer, 409: CONFLICT},
    ),
)
class ApplicationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, PermitsViewSet):
    filterset_class = ApplicationFilter
    search_fields = ["reference", "establishment__business_name"]
    ordering_fields = ["created_at", "submitted_at", "status", "reference"]
    ordering = ["-created_at", "-pk"]
    http_method_names = ["get", "post", "patch", "delete", "head", "options"]

    def get_queryset(self):
        if self.action == "list":
            return selectors.application_list(self.request.user)
        return selectors.applications_visible_to(self.request.user)

    def get_serializer_class(self):
        if self.action == "list":
            return s.ApplicationListSerializer
        if self.action in ("create", "partial_update"):
            return s.ApplicationWriteSerializer
        return s.ApplicationSerializer

    def get_object(self):
        return selectors.application_detail(self.request.user, self.kwargs["pk"])

    def detail_response(self, application, code=status.HTTP_200_OK):
        fresh = selectors.application_detail(self.request.user, application.pk)
        return Response(
            s.ApplicationSerializer(fresh, context=self.get_serializer_context()).data, status=code
        )

    def create(self, request, *args, **kwargs):
        data = dict(self.input(s.ApplicationWriteSerializer))
        establishment = data.pop("establishment")
        kind = data.pop("kind", ApplicationKind.NEW)
        previous = data.pop("previous_permit", None)
        fixtures = data.pop("fixtures", None)
        if kind in (ApplicationKind.RENEWAL, ApplicationKind.CHANGE):
            if previous is None:
                raise DRFValidationError(
                    {"previous_permit": ["Name the permit this application renews or replaces."]}
                )
            if previous.establishment_id != establishment.pk:
                raise DRFValidationError(
                    {"previous_permit": ["That permit belongs to another establishment."]}
                )
            if kind == ApplicationKind.RENEWAL:
                application = services.renewal_application_start(permit=previous, acting_user=request.user)
            else:
                application = services.change_application_start(
                    permit=previous,
                    acting_user=request.user,
                    change_reasons=data.pop("change_reasons", []),
                    change_description=data.pop("change_description", ""),
                )
            if data or fixtures is not None:
                application = services.application_update(
                    application=application, acting_user=request.user, fixtures=fixtures, **data
                )
        else:
            application = services.application_create(
                acting_user=request.user, establishment=establishment, kind=kind, fixtures=fixtures, **data
            )
        return self.detail_response(application, status.HTTP_201_CREATED)

    def partial_update(self, request, *args, **kwargs):
        application = self.get_object()
        data = dict(self.input(s.ApplicationWriteSerializer, instance=application, partial=True))
        fixtures = data.pop("fixtures", None)
        application = services.application_update(
            application=application, acting_user=request.user, fixtures=fixtures, **data
        )
        return self.detail_response(application)

    def _step(self, service, input_class=None, **extra):
        application = self.get_object()
        values = dict(self.input(input_class)) if input_class else {}
        values.update(extra)
        result = service(application=application, acting_user=self.request.user, **values)
        return self.detail_response(result if hasattr(result, "reference") else application)

    @extend_schema(
        summary="Submit the draft, once (B3/B4)",
        request=None,
        responses={200: s.ApplicationSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def submit(self, request, pk=None):
        return self._step(services.application_submit)

    @extend_schema(
        summary="Take up a submitted application for review (B5)",
        request=None,
        responses={200: s.ApplicationSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"], url_path="start-review")
    def start_review(self, request, pk=None):
        return self._step(services.application_start_review)

    @extend_schema(
        summary="Ask the applicant for more information (B3)",
        request=s.MessageInputSerializer,
        responses={200: s.ApplicationSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"], url_path="request-information")
    def request_information(self, request, pk=None):
        return self._step(services.application_request_information, s.MessageInputSerializer)

    @extend_schema(
        summary="Answer a request for information (files optional)",
        request=s.RespondInputSerializer,
        responses={200: s.ApplicationSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"], parser_classes=[JSONParser, MultiPartParser, FormParser])
    def respond(self, request, pk=None):
        return self._step(services.application_respond, s.RespondInputSerializer)

    @extend_schema(
        summary="Add a note to the thread",
        request=s.MessageInputSerializer,
        responses={200: s.ApplicationSerializer},
    )
    @action(detail=True, methods=["post"])
    def note(self, request, pk=None):
        return self._step(services.application_add_note, s.MessageInputSerializer)

    @extend_schema(
        summary="Accept the application (B5)",
        request=None,
        responses={200: s.ApplicationSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def accept(self, request, pk=None):
        return self._step(services.application_accept)

    @extend_schema(
        summary="Schedule the optional on-site inspection (B5)",
        request=s.ScheduleInspectionSerializer,
        responses={200: s.ApplicationSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"], url_path="schedule-inspection")
    def schedule_inspection(self, request, pk=None):
        return self._step(services.application_schedule_inspection, s.ScheduleInspectionSerializer)

    @extend_schema(
        summary="Record the inspection's result (B5)",
        request=s.InspectionResultSerializer,
        responses={200: s.ApplicationSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"], url_path="record-inspection")
    def record_inspection(self, request, pk=None):
        return self._step(services.application_record_inspection, s.InspectionResultSerializer)

    @extend_schema(
        summary="Reject, with reasons",
        request=s.ReasonsSerializer,
        responses={200: s.ApplicationSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def reject(self, request, pk=None):
        return self._step(services.application_reject, s.ReasonsSerializer)

    @extend_schema(
        summary="Withdraw the application",
        request=s.ReasonSerializer,
        responses={200: s.ApplicationSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def withdraw(self, request, pk=None):
        return self._step(services.application_withdraw, s.ReasonSerializer)

    @extend_schema(
        summary="Issue the permit (B5, B2, B6)",
        description="The FOG Manager only. Terms default to the application's device and the permit it follows.",
        request=s.IssueSerializer,
        responses={201: s.PermitSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def issue(self, request, pk=None):
        application = self.get_object()
        permit = services.permit_issue(
            application=application, acting_user=request.user, **self.input(s.IssueSerializer)
        )
        fresh = selectors.permit_detail(request.user, permit.pk)
        return Response(
            s.PermitSerializer(fresh, context=self.get_serializer_context()).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        summary="Attach a document to a draft (B4 permits, plans)",
        request={"multipart/form-data": s.DocumentInputSerializer},
        responses={201: s.DocumentSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"], parser_classes=[MultiPartParser, FormParser])
    def documents(self, request, pk=None):
        application = self.get_object()
        values = self.input(s.DocumentInputSerializer)
        document = services.application_add_document(
            application=application,
            acting_user=request.user,
            uploaded_file=values["file"],
            kind=values["kind"],
        )
        return Response(s.DocumentSerializer(document).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="The CPC sizing check: required size beside the installed device (A4, A5)",
        responses={200: OpenApiTypes.OBJECT},
    )
    @action(detail=True, methods=["get"])
    def sizing(self, request, pk=None):
        from fogcontrol.permits.sizing import application_sizing

        check = application_sizing(self.get_object(), ruleset_on(town_today()))
        return Response(
            {
                "dfu": check.dfu.total,
                "dfu_unknown": list(check.dfu.unlisted),
                "direct_flow_gpm": str(check.dfu.direct_flow_gpm),
                "gravity_basis": check.gravity.basis,
                "gravity_basis_dfu": check.gravity.basis_dfu,
                "inlet_pipe_size_in": str(check.gravity.inlet_pipe_in)
                if check.gravity.inlet_pipe_in
                else None,
                "flow_volume_gallons": check.gravity.flow_volume_gal,
                "gravity_size_complete": check.gravity.complete,
                "gravity_required_gallons": check.gravity.required_gallons,
                "hydromechanical_required_gpm": check.hydromechanical.required_rated_flow_gpm
                if check.hydromechanical
                else None,
                "device_kind": check.device_kind,
                "installed_gallons": check.installed_gallons,
                "installed_gpm": check.installed_gpm,
                "adequate": check.adequate,
                "verdict": check.verdict,
                "warnings": list(check.warnings),
                "a4_flags": list(check.a4_flags),
                "explanation": check.explanation.as_dict(),
            }
        )


# --- Permits -----------------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        summary="List permits", description="Staff see all; an FSE its own; a hauler its customers'."
    ),
    retrieve=extend_schema(summary="One permit with its versions, modifications and timeline"),
)
class PermitViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, PermitsViewSet):
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

    def get_object(self):
        return selectors.permit_detail(self.request.user, self.kwargs["pk"])

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
    @action(detail=True, methods=["get"])
    def versions(self, request, pk=None):
        permit = self.get_object()
        return Response(s.PermitVersionSerializer(permit.versions.all(), many=True).data)

    @extend_schema(
        summary="The permit as a PDF",
        parameters=[
            OpenApiParameter("version", int, description="A version number; default the one in force")
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
        return pdf_response(permit_pdf(version), f"{permit.number}-v{version.number}.pdf")

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
        summary="Suspend the permit",
        request=s.ReasonSerializer,
        responses={200: s.PermitSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def suspend(self, request, pk=None):
        return self.permit_response(
            services.permit_suspend(
                permit=self.get_object(), acting_user=request.user, **self.input(s.ReasonSerializer)
            )
        )

    @extend_schema(
        summary="Reinstate a suspended permit",
        request=s.ReasonSerializer,
        responses={200: s.PermitSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def reinstate(self, request, pk=None):
        return self.permit_response(
            services.permit_reinstate(
                permit=self.get_object(), acting_user=request.user, **self.input(s.ReasonSerializer)
            )
        )

    @extend_schema(
        summary="Revoke the permit (L5)",
        request=s.ReasonSerializer,
        responses={200: s.PermitSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def revoke(self, request, pk=None):
        return self.permit_response(
            services.permit_revoke(
                permit=self.get_object(), acting_user=request.user, **self.input(s.ReasonSerializer)
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
class RenewalViewSet(mixins.ListModelMixin, PermitsViewSet):
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
    list=extend_schema(summary="Permit modifications (B7)"),
    retrieve=extend_schema(summary="One modification"),
)
class ModificationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, PermitsViewSet):
    serializer_class = s.ModificationSerializer
    filterset_fields = ["status", "permit"]
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
    filterset_fields = ["kind", "permit", "establishment"]
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
        return pdf_response(notice_pdf(notice, town_contacts()), f"notice-{notice.pk}.pdf")


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


@extend_schema_view(
    list=extend_schema(summary="The Town's fee schedule, every version"),
    retrieve=extend_schema(summary="One version of the fee schedule"),
    create=extend_schema(
        summary="Set a new version of the fees (FOG Manager, billing clerk)",
        request=s.FeeScheduleInputSerializer,
        responses={201: s.FeeScheduleSerializer},
    ),
)
class FeeScheduleViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, PermitsViewSet
):
    serializer_class = s.FeeScheduleSerializer
    filter_backends: list = []

    def get_queryset(self):
        from fogcontrol.permits.models import FeeSchedule

        return FeeSchedule.objects.prefetch_related("lines").order_by("-effective_from")

    def create(self, request, *args, **kwargs):
        schedule = services.fee_schedule_create(
            acting_user=request.user, **self.input(s.FeeScheduleInputSerializer)
        )
        return Response(
            s.FeeScheduleSerializer(self.get_queryset().get(pk=schedule.pk)).data,
            status=status.HTTP_201_CREATED,
        )


@extend_schema_view(
    list=extend_schema(
        summary="Fees owed on applications and plan reviews", description="Billing picks these up (Q1)."
    ),
    retrieve=extend_schema(summary="One fee"),
)
class FeeChargeViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, PermitsViewSet):
    serializer_class = s.FeeChargeSerializer
    filterset_fields = ["status", "kind", "establishment", "application"]
    ordering = ["-assessed_on", "-pk"]

    def get_queryset(self):
        return selectors.fee_charges_visible_to(self.request.user)
