"""The servicing API. Thin: parse, call a service or selector, answer."""

from decimal import Decimal

from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from fogcontrol.core.api.errors import FRESH_AUTHENTICATION_RESPONSE, django_validation_detail
from fogcontrol.core.api.views import ScopedViewSet, StaffOnly
from fogcontrol.core.files import download
from fogcontrol.core.fresh_auth import require_fresh_authentication
from fogcontrol.core.permissions import require_role
from fogcontrol.program.selectors import town_today
from fogcontrol.registry.selectors import devices_visible_to
from fogcontrol.servicing import imports, selectors, services
from fogcontrol.servicing.api import serializers as s
from fogcontrol.servicing.api.idempotency import idempotent
from fogcontrol.servicing.filters import (
    FlagFilter,
    FrequencyRequestFilter,
    ManifestFilter,
    RequirementFilter,
    ServiceStatusFilter,
)
from fogcontrol.servicing.models import Manifest, SludgeReading
from fogcontrol.servicing.permissions import STEP_ROLES
from fogcontrol.servicing.services.ingest import IngestRow, manifests_ingest

BATCH_LIMIT = 500


def _raw(request) -> dict:
    data = request.data
    return data.dict() if hasattr(data, "dict") else dict(data)


def _manifest_out(request, manifest: Manifest) -> dict:
    fresh = selectors.manifest_detail(request.user, manifest.pk)
    return s.ManifestSerializer(fresh, context={"request": request}).data


class ManifestViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """Service manifests (E7, F1). Submit one, a batch, or a correction; honours Idempotency-Key."""

    step_roles = {step: STEP_ROLES["submit_manifest"] for step in ("create", "batch", "correct")}

    serializer_class = s.ManifestSerializer
    filterset_class = ManifestFilter
    ordering_fields = ["serviced_at", "received_at", "manifest_number"]
    parser_classes = [JSONParser, MultiPartParser, FormParser]

    def get_queryset(self):
        return selectors.manifest_list_for_api(self.request.user)

    def find_object(self, pk):
        return selectors.manifest_detail(self.request.user, pk)

    @extend_schema(
        request=s.ManifestInputSerializer,
        responses={201: s.ManifestSerializer, 403: FRESH_AUTHENTICATION_RESPONSE},
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False)],
    )
    def create(self, request, *args, **kwargs):
        # Staff certify a manifest on the hauler's or the FSE's behalf: only just authenticated.
        require_fresh_authentication(request)

        def handler():
            serializer = s.ManifestInputSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            submission = serializer.to_submission()
            submission.attachments = request.FILES.getlist("attachments")
            manifest = services.manifest_submit(
                acting_user=request.user,
                submission=submission,
                channel=Manifest.Channel.API,
                raw=_raw(request),
            )
            return Response(_manifest_out(request, manifest), status=status.HTTP_201_CREATED)

        return idempotent(request, handler)

    @extend_schema(
        request={
            "application/json": {
                "type": "object",
                "properties": {"manifests": {"type": "array", "items": {"type": "object"}}},
            }
        },
        responses={200: dict, 403: FRESH_AUTHENTICATION_RESPONSE},
        parameters=[OpenApiParameter("Idempotency-Key", str, OpenApiParameter.HEADER, required=False)],
    )
    @action(detail=False, methods=["post"])
    def batch(self, request):
        """Submit up to 500 manifests; each is accepted or rejected on its own, with its reasons."""
        require_fresh_authentication(request)

        def handler():
            items = request.data.get("manifests") if isinstance(request.data, dict) else None
            if not isinstance(items, list) or not items:
                raise ValidationError({"manifests": ["Send a list of manifests under 'manifests'."]})
            if len(items) > BATCH_LIMIT:
                raise ValidationError(
                    {"manifests": [f"At most {BATCH_LIMIT} manifests per batch; split the batch."]}
                )
            # Each item checked by its serializer, then the valid ones submitted together through
            # the set-based ingest: each accepted or refused on its own, as manifest_submit would.
            results, valid = [None] * len(items), []
            for index, (submission, errors) in enumerate(s.ManifestInputSerializer.each(items)):
                if errors is not None:
                    results[index] = {"index": index, "status": "rejected", "errors": errors}
                    continue
                valid.append((index, IngestRow(submission=submission, raw=items[index])))
            outcomes = manifests_ingest(
                acting_user=request.user, rows=[row for _, row in valid], channel=Manifest.Channel.API
            )
            accepted = 0
            for (index, _), outcome in zip(valid, outcomes, strict=True):
                if not outcome.accepted:
                    errors = django_validation_detail(DjangoValidationError(outcome.errors))
                    results[index] = {"index": index, "status": "rejected", "errors": errors}
                    continue
                accepted += 1
                manifest = outcome.manifest
                results[index] = {
                    "index": index,
                    "status": "accepted",
                    "id": manifest.pk,
                    "manifest_number": manifest.manifest_number,
                    "record_hash": manifest.record_hash,
                    "flags": [f.code for f in manifest.flag_list],
                }
            body = {"accepted": accepted, "rejected": len(items) - accepted, "results": results}
            return Response(body, status=status.HTTP_200_OK)

        return idempotent(request, handler)

    @extend_schema(
        request=s.CorrectionInputSerializer,
        responses={201: s.ManifestSerializer, 403: FRESH_AUTHENTICATION_RESPONSE},
    )
    @action(detail=True, methods=["post"])
    def correct(self, request, pk=None):
        """F7: file a correction: a new manifest pointing to this one (nothing is edited)."""
        original = self.get_object()
        require_fresh_authentication(request)

        def handler():
            serializer = s.CorrectionInputSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            correction = services.manifest_correct(
                manifest=original,
                acting_user=request.user,
                submission=serializer.to_submission(),
                reason=serializer.validated_data["reason"],
                withdraw=serializer.validated_data["withdraw"],
                channel=Manifest.Channel.API,
                raw=_raw(request),
            )
            return Response(_manifest_out(request, correction), status=status.HTTP_201_CREATED)

        return idempotent(request, handler)


class DeviceComplianceView(APIView):
    """Issue 3: a device's compliance on a day, with the rules' explanation."""

    @extend_schema(parameters=[s.ComplianceQuerySerializer], responses={200: dict})
    def get(self, request, pk):
        query = s.ComplianceQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        on = query.validated_data.get("on") or town_today()
        device, snap = selectors.device_compliance(request.user, pk, on=on)
        status_ = snap.status
        explanation = status_.explanation
        if snap.recommendation is not None:
            explanation = explanation.plus(snap.recommendation.explanation)
        return Response(
            {
                "device": device.pk,
                "identifier": device.identifier,
                "on": on,
                "status": status_.status,
                "last_service": snap.last_service_on,
                "last_full_pumpout": status_.last_full_pumpout,
                "next_due": status_.next_due,
                "grace_days": status_.grace_days,
                "overdue_from": status_.overdue_from,
                "days_until_due": status_.days_until_due,
                "frequency_days": status_.frequency_days,
                "frequency_is_default": status_.frequency_is_default,
                "fill_ratio": str(status_.fill_ratio.quantize(Decimal("0.0001")))
                if status_.fill_ratio is not None
                else None,
                "fill_limit": str(status_.fill_limit),
                "recommended_frequency_days": snap.recommendation.recommended_frequency_days
                if snap.recommendation
                else None,
                "explanation": explanation.as_dict(),
            }
        )


class DeviceHistoryView(APIView):
    """A device's service history: the timeline and the fill ratio over time."""

    @extend_schema(responses={200: dict})
    def get(self, request, pk):
        history = selectors.device_history(request.user, pk)
        return Response(
            {
                "device": history.device.pk,
                "identifier": history.device.identifier,
                "events": [
                    {
                        "on": e.on,
                        "at": e.at,
                        "kind": e.kind,
                        "id": getattr(e.obj, "pk", None),
                        "title": e.title,
                        "detail": e.detail,
                        "state": e.badge,
                    }
                    for e in history.events
                ],
                "fill_ratio": [
                    {"on": day, "fill_ratio": str(ratio), "source": source}
                    for day, ratio, source in history.chart
                ],
                "fill_limit": str(history.limit),
            }
        )


class DeviceFrequencyView(APIView):
    """E1 / B7: a device's changes of frequency (GET), and the one way to propose one (POST, FOG
    Manager). A new proposal withdraws the pending one; the responsible party (A2) and the
    permittees are told; refused (400, `responsible_party`) when one has no contact on record."""

    @extend_schema(responses={200: s.FrequencyChangeSerializer(many=True)})
    def get(self, request, pk):
        device = devices_visible_to(request.user).get(pk=pk)
        changes = selectors.frequency_changes_visible_to(request.user).filter(device=device)
        return Response(s.FrequencyChangeSerializer(changes, many=True).data)

    @extend_schema(request=s.FrequencyChangeInputSerializer, responses={201: s.FrequencyChangeSerializer})
    def post(self, request, pk):
        device = devices_visible_to(request.user).get(pk=pk)
        require_role(request.user, *STEP_ROLES["set_frequency"])
        serializer = s.FrequencyChangeInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        change = services.frequency_change(
            device=device, acting_user=request.user, **serializer.validated_data
        )
        change = selectors.frequency_change_detail(request.user, change.pk)
        return Response(s.FrequencyChangeSerializer(change).data, status=status.HTTP_201_CREATED)


class FrequencyChangeWithdrawView(APIView):
    """B7: withdraw a pending change (FOG Manager); everyone told is told why. 409 if not pending."""

    @extend_schema(request=s.FrequencyWithdrawInputSerializer, responses={200: s.FrequencyChangeSerializer})
    def post(self, request, pk):
        change = selectors.frequency_change_detail(request.user, pk)
        require_role(request.user, *STEP_ROLES["set_frequency"])
        serializer = s.FrequencyWithdrawInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.frequency_change_withdraw(
            change=change, acting_user=request.user, **serializer.validated_data
        )
        return Response(s.FrequencyChangeSerializer(selectors.frequency_change_detail(request.user, pk)).data)


class ServiceStatusViewSet(mixins.ListModelMixin, ScopedViewSet):
    """Every device the user may see with its current service state (kept by servicing)."""

    filterset_class = ServiceStatusFilter

    def get_queryset(self):
        return selectors.service_status_list(self.request.user)

    def get_serializer_class(self):
        return _StatusSerializer


class _StatusSerializer(s.serializers.Serializer):
    id = s.serializers.IntegerField()
    identifier = s.serializers.CharField()
    kind = s.serializers.CharField()
    status = s.serializers.SerializerMethodField()
    last_full_pumpout = s.serializers.DateField(
        source="service_state.last_full_pumpout", default=None, allow_null=True
    )
    next_due = s.serializers.DateField(source="service_state.next_due", default=None, allow_null=True)
    frequency_days = s.serializers.IntegerField(
        source="service_state.frequency_days", default=None, allow_null=True
    )
    fill_ratio = s.serializers.DecimalField(
        source="service_state.fill_ratio", max_digits=7, decimal_places=4, default=None, allow_null=True
    )
    recommended_frequency_days = s.serializers.IntegerField(
        source="service_state.recommended_frequency_days", default=None, allow_null=True
    )
    immediate_service_required = s.serializers.BooleanField(
        source="service_state.immediate_service_required", default=False, allow_null=True
    )
    establishments = s.serializers.SerializerMethodField()

    def get_status(self, device) -> str:
        state = getattr(device, "service_state", None)
        return state.status if state else "never_serviced"

    def get_establishments(self, device) -> list[str]:
        return [fse.business_name for fse in device.establishments.all()]


class FlagViewSet(StaffOnly, mixins.ListModelMixin, ScopedViewSet):
    step_roles = {"review": STEP_ROLES["review"]}
    serializer_class = s.FlagSerializer
    filterset_class = FlagFilter

    def get_queryset(self):
        return selectors.flags_to_review(self.request.user)

    @extend_schema(request=s.FlagReviewSerializer, responses={200: s.FlagSerializer})
    @action(detail=True, methods=["post"])
    def review(self, request, pk=None):
        flag = self.get_object()
        serializer = s.FlagReviewSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        flag = services.flag_review(flag=flag, acting_user=request.user, **serializer.validated_data)
        return Response(s.FlagSerializer(flag).data)


class RequirementViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    step_roles = {"close": STEP_ROLES["review"]}
    serializer_class = s.RequirementSerializer
    filterset_class = RequirementFilter

    def get_queryset(self):
        return selectors.requirements_visible_to(self.request.user)

    @extend_schema(request=s.RequirementCloseSerializer, responses={200: s.RequirementSerializer})
    @action(detail=True, methods=["post"])
    def close(self, request, pk=None):
        requirement = self.get_object()
        serializer = s.RequirementCloseSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        requirement = services.requirement_close(
            requirement=requirement, acting_user=request.user, **serializer.validated_data
        )
        return Response(s.RequirementSerializer(requirement).data)


class FrequencyRequestViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, ScopedViewSet
):
    """E5: an owner's written request for a different frequency, and the FOG Manager's decision."""

    step_roles = {"create": STEP_ROLES["request_frequency"], "decide": STEP_ROLES["decide_request"]}

    serializer_class = s.FrequencyRequestSerializer
    filterset_class = FrequencyRequestFilter

    def get_queryset(self):
        return selectors.frequency_requests_visible_to(self.request.user)

    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        device = serializer.validated_data["device"]  # among the devices the user may see
        filed = services.frequency_request_file(
            device=device,
            acting_user=request.user,
            requested_days=serializer.validated_data["requested_days"],
            justification=serializer.validated_data["justification"],
        )
        return Response(self.get_serializer(filed).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.DecisionSerializer, responses={200: s.FrequencyRequestSerializer})
    @action(detail=True, methods=["post"])
    def decide(self, request, pk=None):
        filed = self.get_object()
        serializer = s.DecisionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        decided = services.frequency_request_decide(
            request=filed, acting_user=request.user, **serializer.validated_data
        )
        return Response(self.get_serializer(decided).data)


class ReadingViewSet(mixins.ListModelMixin, mixins.CreateModelMixin, ScopedViewSet):
    """Sludge-height readings without a pump-out: inspections and self-monitoring (D4, F3, F6)."""

    step_roles = {"create": STEP_ROLES["review"]}

    serializer_class = s.ReadingSerializer

    def get_queryset(self):
        return SludgeReading.objects.visible_to(self.request.user).select_related("device")

    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        device = data.pop("device")  # among the devices the user may see
        reading = services.reading_record(device=device, acting_user=request.user, **data)
        return Response(self.get_serializer(reading).data, status=status.HTTP_201_CREATED)


class ManifestImportViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, ScopedViewSet
):
    """CSV upload of manifests: 202 Accepted, then poll the import for its per-row report."""

    step_roles = {"create": STEP_ROLES["submit_manifest"]}

    serializer_class = s.ManifestImportSerializer
    parser_classes = [MultiPartParser, FormParser]

    def get_queryset(self):
        return selectors.imports_visible_to(self.request.user)

    @extend_schema(
        request=s.ManifestImportUploadSerializer,
        responses={202: s.ManifestImportSerializer, 403: FRESH_AUTHENTICATION_RESPONSE},
    )
    def create(self, request, *args, **kwargs):
        upload = s.ManifestImportUploadSerializer(data=request.data)
        upload.is_valid(raise_exception=True)
        if not upload.validated_data["dry_run"]:
            # Each row is a manifest certified on its hauler's behalf (a dry run signs nothing).
            require_fresh_authentication(request)
        # No transaction here: the service keeps the file without holding the write lock.
        record = imports.manifest_import_create(
            acting_user=request.user,
            upload=upload.validated_data["file"],
            dry_run=upload.validated_data["dry_run"],
        )
        imports.manifest_import_enqueue(record)
        return Response(self.get_serializer(record).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(responses={200: s.ImportProblemSerializer(many=True)})
    @action(detail=True, methods=["get"])
    def problems(self, request, pk=None):
        record = self.get_object()
        page = self.paginate_queryset(record.problems.all())
        return self.get_paginated_response(s.ImportProblemSerializer(page, many=True).data)

    @extend_schema(responses={(200, "text/csv"): bytes})
    @action(detail=True, methods=["get"])
    def report(self, request, pk=None):
        record = self.get_object()
        if not record.report:
            raise NotFound("The report is not ready yet.")
        return download(record.report, filename=f"import-{record.pk}-report.csv", content_type="text/csv")
