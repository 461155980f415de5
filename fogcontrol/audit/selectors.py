"""Reading the audit trail."""

from django.contrib.contenttypes.models import ContentType
from django.db import models

from fogcontrol.audit.models import AuditEntry


def audit_entries_for(instance: models.Model):
    content_type = ContentType.objects.get_for_model(instance, for_concrete_model=True)
    return AuditEntry.objects.filter(content_type=content_type, object_id=str(instance.pk)).select_related(
        "actor"
    )
