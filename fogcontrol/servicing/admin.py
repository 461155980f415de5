"""Admin: copies of record are shown read-only; the database refuses changes anyway (F7)."""

from django.contrib import admin

from fogcontrol.core.admin import ReadOnlyRecordAdmin
from fogcontrol.servicing.models import Manifest, ManifestAttachment


@admin.register(Manifest)
class ManifestAdmin(ReadOnlyRecordAdmin):
    list_display = ["manifest_number", "device", "hauler_name", "serviced_at", "channel", "received_at"]
    list_select_related = ["device"]
    search_fields = ["manifest_number", "device__identifier", "hauler_name"]


admin.site.register(ManifestAttachment, ReadOnlyRecordAdmin)
