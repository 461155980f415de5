"""Admin: copies of record are shown read-only; the database refuses changes anyway (F7)."""

from django.contrib import admin

from fogcontrol.core.models import PurgedRecord


class ReadOnlyRecordAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


admin.site.register(PurgedRecord, ReadOnlyRecordAdmin)
