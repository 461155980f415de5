"""Documents and templates in the API."""

from __future__ import annotations

from django.contrib.contenttypes.models import ContentType
from django.urls import reverse
from rest_framework import serializers

from fogcontrol.core.api.fields import RecordIdField, ScopedPrimaryKeyRelatedField
from fogcontrol.notices.models import (
    DocumentService,
    DocumentTemplate,
    IssuedDocument,
    PrintBatch,
    ServiceMethod,
)
from fogcontrol.registry.models import FoodServiceEstablishment


class TemplateVersionSerializer(serializers.ModelSerializer):
    class Meta:
        model = DocumentTemplate
        fields = ["id", "key", "version", "title", "body", "effective_from", "adopted_by", "created_by_label"]
        read_only_fields = ["id", "key", "version", "created_by_label"]


class TemplateVersionWriteSerializer(serializers.Serializer):
    title = serializers.CharField(max_length=300)
    body = serializers.CharField()
    effective_from = serializers.DateField()
    adopted_by = serializers.CharField(max_length=300)


class RegisteredDocumentSerializer(serializers.Serializer):
    key = serializers.CharField()
    title = serializers.CharField()
    provisions = serializers.ListField(child=serializers.CharField())
    placeholders = serializers.DictField(child=serializers.CharField())
    version_in_force = TemplateVersionSerializer(allow_null=True)
    draft = TemplateVersionSerializer(allow_null=True)


class DocumentServiceSerializer(serializers.ModelSerializer):
    class Meta:
        model = DocumentService
        fields = ["id", "method", "served_on", "article_number", "note", "recorded_at", "recorded_by_label"]
        read_only_fields = fields


class IssuedDocumentSerializer(serializers.ModelSerializer):
    establishment = serializers.CharField(source="establishment.business_name", read_only=True)
    provisions = serializers.ListField(source="provision_list", child=serializers.CharField(), read_only=True)
    subject_type = serializers.SerializerMethodField()
    served = serializers.BooleanField(read_only=True)
    service = serializers.SerializerMethodField()
    services = DocumentServiceSerializer(source="service_list", many=True, read_only=True)

    class Meta:
        model = IssuedDocument
        fields = [
            "id",
            "reference",
            "key",
            "template_version",
            "establishment",
            "establishment_id",
            "addressee",
            "title",
            "body",
            "provisions",
            "letterhead",
            "issued_on",
            "subject_type",
            "subject_id",
            "served",
            "service",
            "services",
            "received_at",
            "submitted_by_label",
            "record_hash",
        ]
        read_only_fields = fields

    def get_subject_type(self, document) -> str | None:
        # The content type's label from the cache (ContentType.objects.get_for_id): no query per row.
        if document.subject_type_id is None:
            return None
        content_type = ContentType.objects.get_for_id(document.subject_type_id)
        return f"{content_type.app_label}.{content_type.model}"

    def get_service(self, document) -> dict | None:
        services = getattr(document, "service_list", None) or []
        return DocumentServiceSerializer(services[0]).data if services else None


class GeneralLetterIssueSerializer(serializers.Serializer):
    """Issue the program's letter to an FSE (``general_letter``)."""

    establishment = ScopedPrimaryKeyRelatedField(
        queryset=FoodServiceEstablishment.objects.all(), what="establishment", where="/api/v1/establishments/"
    )
    addressee = serializers.CharField(
        required=False, allow_blank=True, help_text="Default: the business and its mailing address."
    )
    body_text = serializers.CharField()
    service_method = serializers.ChoiceField(choices=ServiceMethod.choices)
    served_on = serializers.DateField(required=False, allow_null=True)
    article_number = serializers.CharField(required=False, allow_blank=True, default="")


class DocumentServiceRecordSerializer(serializers.Serializer):
    service_method = serializers.ChoiceField(choices=ServiceMethod.choices)
    served_on = serializers.DateField()
    article_number = serializers.CharField(required=False, allow_blank=True, default="")
    note = serializers.CharField(required=False, allow_blank=True, default="")


class MailRunLetterSerializer(serializers.ModelSerializer):
    """A letter waiting for the certified or registered mail run (issue #17)."""

    method = serializers.CharField(source="mail_method", read_only=True)
    article_number = serializers.CharField(source="mail_article", read_only=True)

    class Meta:
        model = IssuedDocument
        fields = ["id", "reference", "key", "title", "addressee", "issued_on", "method", "article_number"]
        read_only_fields = fields


class MailLogRowSerializer(serializers.Serializer):
    document = RecordIdField()
    article_number = serializers.CharField(required=False, allow_blank=True, default="")
    mailed_on = serializers.DateField()


class MailLogSerializer(serializers.Serializer):
    rows = MailLogRowSerializer(many=True)


class PrintBatchStartSerializer(serializers.Serializer):
    documents = serializers.ListField(child=RecordIdField(), allow_empty=False)


class PrintBatchSerializer(serializers.ModelSerializer):
    """A print batch (issue #17): its state and progress ("rendering 37 of 120"), then the download."""

    progress = serializers.SerializerMethodField()
    download = serializers.SerializerMethodField()

    class Meta:
        model = PrintBatch
        fields = ["id", "kind", "status", "total", "rendered", "progress", "error", "created_at",
                  "finished_at", "download"]  # fmt: skip
        read_only_fields = fields

    def get_progress(self, batch) -> str:
        if batch.status == PrintBatch.Status.DONE:
            return f"ready: {batch.rendered} of {batch.total}"
        if batch.status == PrintBatch.Status.FAILED:
            return "failed"
        return f"{batch.get_status_display().lower()} {batch.rendered} of {batch.total}"

    def get_download(self, batch) -> str | None:
        """The API path of the PDF once it is ready (access-checked, like every download)."""
        if batch.status != PrintBatch.Status.DONE:
            return None
        return reverse("notices-print-batch-pdf", args=[batch.pk])
