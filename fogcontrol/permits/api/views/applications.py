"""Permit applications in the API: draft, submit, review, issue (B3, B4, B5, B8).

Thin views. Reads come from fogcontrol.permits.selectors, scoped to the user (outside the scope:
404). Writes and state changes are permits services: an illegal transition answers 409 with the
reason, a bad field 400 naming it, an action the user's role may not take 403.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError as DRFValidationError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.response import Response

from fogcontrol.core.api.errors import FRESH_AUTHENTICATION_RESPONSE
from fogcontrol.core.api.versions import VersionETag, if_match_version
from fogcontrol.core.fresh_auth import require_fresh_authentication
from fogcontrol.permits import selectors, services
from fogcontrol.permits.api import serializers as s
from fogcontrol.permits.api.views.base import CONFLICT, PermitsViewSet
from fogcontrol.permits.filters import ApplicationFilter
from fogcontrol.permits.models import ApplicationKind
from fogcontrol.permits.roles import STEP_ROLES
from fogcontrol.permits.sizing import application_sizing
from fogcontrol.program.selectors import ruleset_on, town_today

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
        description="Only drafts change; a submitted application is a copy of record (409). Send the "
        "ETag of the draft as you read it in If-Match: a draft saved by someone else since is refused "
        "(409, code stale_record) rather than overwritten.",
        request=s.ApplicationWriteSerializer,
        responses={200: s.ApplicationSerializer, 409: CONFLICT},
    ),
)
class ApplicationViewSet(VersionETag, mixins.ListModelMixin, mixins.RetrieveModelMixin, PermitsViewSet):
    filterset_class = ApplicationFilter
    step_roles = {
        "create": STEP_ROLES["apply"],
        "update": STEP_ROLES["edit"],
        "partial_update": STEP_ROLES["edit"],
        "documents": STEP_ROLES["document"],
        **{
            step: STEP_ROLES[step]
            for step in (
                "submit", "respond", "note", "withdraw", "start_review", "request_information",
                "schedule_inspection", "record_inspection", "accept", "reject", "issue",
            )
        },
    }  # fmt: skip
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

    def find_object(self, pk):
        return selectors.application_detail(self.request.user, pk)

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
            application=application,
            acting_user=request.user,
            fixtures=fixtures,
            expected_version=if_match_version(request),
            **data,
        )
        return self.detail_response(application)

    def _step(self, service, input_class=None, *, signs_for_a_party=False, **extra):
        application = self.get_object()
        if signs_for_a_party:
            # After the look-up (a malformed or outside id is 404): staff signing for an FSE must
            # have authenticated just now (issue #15).
            require_fresh_authentication(self.request)
        values = dict(self.input(input_class)) if input_class else {}
        values.update(extra)
        result = service(application=application, acting_user=self.request.user, **values)
        return self.detail_response(result if hasattr(result, "reference") else application)

    @extend_schema(
        summary="Submit the draft, once (B3/B4)",
        request=None,
        responses={200: s.ApplicationSerializer, 403: FRESH_AUTHENTICATION_RESPONSE, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def submit(self, request, pk=None):
        return self._step(services.application_submit, signs_for_a_party=True)

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
        request=s.RejectSerializer,
        responses={200: s.ApplicationSerializer, 409: CONFLICT},
    )
    @action(detail=True, methods=["post"])
    def reject(self, request, pk=None):
        return self._step(services.application_reject, s.RejectSerializer)

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
