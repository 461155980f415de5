"""Notices API: the registered documents and their template versions, issued documents (with the
PDF), writing the program's letter, and recording service.

`GET /api/v1/notices/templates/`, `GET|POST /api/v1/notices/templates/{key}/versions/`,
`GET|POST /api/v1/notices/documents/?establishment=&key=&served=`, `GET /api/v1/notices/documents/{id}/`
(+ `pdf/`, `service/`)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, renderers, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from fogcontrol.core.api.renderers import PDFRenderer
from fogcontrol.core.api.views import ScopedViewSet, StaffOnly, StepRoles
from fogcontrol.core.files import download
from fogcontrol.core.permissions import require_role
from fogcontrol.notices import catalogue, selectors, services
from fogcontrol.notices.api.serializers import (
    DocumentServiceRecordSerializer,
    DocumentServiceSerializer,
    GeneralLetterIssueSerializer,
    IssuedDocumentSerializer,
    MailLogSerializer,
    MailRunLetterSerializer,
    PrintBatchSerializer,
    PrintBatchStartSerializer,
    RegisteredDocumentSerializer,
    TemplateVersionSerializer,
    TemplateVersionWriteSerializer,
)
from fogcontrol.notices.filters import DocumentFilter
from fogcontrol.notices.letters import GENERAL_LETTER
from fogcontrol.notices.pdf import document_pdf
from fogcontrol.notices.roles import DOCUMENT_ISSUERS, EDITORS_ONLY, ISSUERS_ONLY, TEMPLATE_EDITORS
from fogcontrol.program.selectors import town_today

MAIL_RUN_LIMIT = 200


class TemplateViewSet(StepRoles, StaffOnly, viewsets.ViewSet):
    """The registered documents, each with its version in force today and its draft (Town staff;
    anyone else: 404). A new version is drafted from the latest and takes effect after today."""

    lookup_field = "key"
    lookup_value_regex = "[a-z][a-z0-9_]*"
    step_roles = {"versions_create": (TEMPLATE_EDITORS, EDITORS_ONLY)}

    @extend_schema(responses=RegisteredDocumentSerializer(many=True))
    def list(self, request):
        rows = selectors.template_overview(request.user, town_today())
        data = [
            {
                "key": row["registration"].key,
                "title": row["registration"].title,
                "provisions": list(row["registration"].provisions),
                "placeholders": row["registration"].placeholders,
                "version_in_force": row["in_force"],
                "draft": row["draft"],
            }
            for row in rows
        ]
        return Response(RegisteredDocumentSerializer(data, many=True).data)

    def get_object(self) -> str:
        """The registered key named in the URL (404 when no app registered it)."""
        try:
            return catalogue.registered(self.kwargs["key"]).key
        except catalogue.NotRegistered:
            raise Http404("No such document.") from None

    @extend_schema(responses=TemplateVersionSerializer(many=True))
    @action(detail=True, methods=["get"], url_path="versions")
    def versions(self, request, key=None):
        versions = selectors.template_versions(request.user, self.get_object())
        return Response(TemplateVersionSerializer(versions, many=True).data)

    @extend_schema(request=TemplateVersionWriteSerializer, responses={201: TemplateVersionSerializer})
    @versions.mapping.post
    def versions_create(self, request, key=None):
        key = self.get_object()
        serializer = TemplateVersionWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        version = services.template_version_create(
            acting_user=request.user, key=key, **serializer.validated_data
        )
        return Response(TemplateVersionSerializer(version).data, status=status.HTTP_201_CREATED)


class DocumentViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """Documents the user may see: staff all, an FSE user its own establishments' once served."""

    serializer_class = IssuedDocumentSerializer
    filterset_class = DocumentFilter
    step_roles = {
        "create": (DOCUMENT_ISSUERS, ISSUERS_ONLY),
        "service": (DOCUMENT_ISSUERS, ISSUERS_ONLY),
    }

    def get_queryset(self):
        return selectors.documents_for(self.request.user)

    @extend_schema(
        summary="Write the program's letter to an FSE (general_letter)",
        request=GeneralLetterIssueSerializer,
        responses={201: IssuedDocumentSerializer},
    )
    def create(self, request):
        serializer = GeneralLetterIssueSerializer(data=request.data, context={"request": request})
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        establishment = data["establishment"]
        document = services.document_issue(
            acting_user=request.user,
            key=GENERAL_LETTER,
            establishment=establishment,
            addressee=data.get("addressee") or selectors.default_addressee(establishment),
            context={"business_name": establishment.business_name, "body_text": data["body_text"]},
            service_method=data["service_method"],
            served_on=data.get("served_on"),
            article_number=data.get("article_number", ""),
        )
        document = selectors.document_detail(request.user, document.pk)
        return Response(IssuedDocumentSerializer(document).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="The document as a PDF",
        responses={(200, "application/pdf"): OpenApiTypes.BINARY},
    )
    @action(detail=True, methods=["get"], renderer_classes=[renderers.JSONRenderer, PDFRenderer])
    def pdf(self, request, pk=None):
        document = self.get_object()
        response = HttpResponse(document_pdf(document), content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{document.reference}.pdf"'
        return response

    @extend_schema(
        summary="Record how and when the document was served",
        request=DocumentServiceRecordSerializer,
        responses={201: IssuedDocumentSerializer, 400: OpenApiResponse(description="The field and the fix.")},
    )
    @action(detail=True, methods=["post"])
    def service(self, request, pk=None):
        document = self.get_object()
        require_role(request.user, DOCUMENT_ISSUERS, ISSUERS_ONLY)
        serializer = DocumentServiceRecordSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.document_record_service(
            acting_user=request.user, document=document, **serializer.validated_data
        )
        document = selectors.document_detail(request.user, document.pk)
        return Response(IssuedDocumentSerializer(document).data, status=status.HTTP_201_CREATED)


class MailRunViewSet(StepRoles, StaffOnly, viewsets.ViewSet):
    """Issue #17: the letters waiting for certified or registered mail, their print batch (one PDF,
    each letter on a new page) and the mail log (article number and mailing date per letter, recorded
    as each letter's service; all or nothing)."""

    step_roles = {"log": (DOCUMENT_ISSUERS, ISSUERS_ONLY)}

    @extend_schema(responses=MailRunLetterSerializer(many=True))
    def list(self, request):
        rows = selectors.documents_to_mail(request.user)[:MAIL_RUN_LIMIT]
        return Response(MailRunLetterSerializer(rows, many=True).data)

    @extend_schema(
        summary="Print the chosen letters as one PDF, in the background (202: the batch, then poll it)",
        request=PrintBatchStartSerializer,
        responses={202: PrintBatchSerializer, 400: OpenApiResponse(description="No letter waiting.")},
    )
    @action(detail=False, methods=["post"])
    def batch(self, request):
        serializer = PrintBatchStartSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        chosen = serializer.validated_data["documents"]
        waiting = {d.pk: d for d in selectors.documents_to_mail(request.user).filter(pk__in=chosen)}
        missing = [pk for pk in chosen if pk not in waiting]
        if missing:
            raise ValidationError({"documents": f"Not waiting to be mailed: {', '.join(map(str, missing))}."})
        batch = services.print_batch_start(acting_user=request.user, documents=[waiting[pk] for pk in chosen])
        return Response(PrintBatchSerializer(batch).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(
        summary="Record the mail log: each letter's article number and mailing date",
        request=MailLogSerializer,
        responses={
            201: DocumentServiceSerializer(many=True),
            400: OpenApiResponse(description="The rows and the fix."),
        },
    )
    @action(detail=False, methods=["post"])
    def log(self, request):
        serializer = MailLogSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        waiting = {d.pk: d for d in selectors.documents_to_mail(request.user)}
        entries = []
        for row in serializer.validated_data["rows"]:
            document = waiting.get(row["document"])
            if document is None:
                raise ValidationError({"rows": f"Document {row['document']} is not waiting to be mailed."})
            entries.append({"document": document, "method": document.mail_method,
                            "article_number": row["article_number"] or document.mail_article or "",
                            "mailed_on": row["mailed_on"]})  # fmt: skip
        recorded = services.documents_mail_log(acting_user=request.user, entries=entries)
        return Response(DocumentServiceSerializer(recorded, many=True).data, status=status.HTTP_201_CREATED)


class PrintBatchViewSet(mixins.RetrieveModelMixin, ScopedViewSet):
    """Issue #17, #16: a print batch's state while the worker renders it ("rendering 37 of 120"),
    then its PDF (``pdf/``, 404 until it is ready). Staff's; anyone else 404."""

    serializer_class = PrintBatchSerializer

    def get_queryset(self):
        return selectors.print_batches_visible_to(self.request.user)

    @extend_schema(
        summary="The batch's PDF once ready", responses={(200, "application/pdf"): OpenApiTypes.BINARY}
    )
    @action(detail=True, methods=["get"], renderer_classes=[renderers.JSONRenderer, PDFRenderer])
    def pdf(self, request, pk=None):
        batch = self.get_object()
        if batch.status != batch.Status.DONE:
            raise Http404("The batch is not ready yet.")
        return download(batch.file, filename=f"mail-run-{batch.pk}.pdf", content_type="application/pdf")
