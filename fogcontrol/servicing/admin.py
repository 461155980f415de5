"""Admin: copies of record are shown read-only; the database refuses changes anyway (F7)."""

from django.contrib import admin

from fogcontrol.servicing.models import Manifest, ManifestAttachment, PurgedRecord


class ReadOnlyRecordAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Manifest)
class ManifestAdmin(ReadOnlyRecordAdmin):
    list_display = ["manifest_number", "device", "hauler_name", "serviced_at", "channel", "received_at"]
    list_select_related = ["device"]
    search_fields = ["manifest_number", "device__identifier", "hauler_name"]


admin.site.register(ManifestAttachment, ReadOnlyRecordAdmin)
admin.site.register(PurgedRecord, ReadOnlyRecordAdmin)
