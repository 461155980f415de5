"""Findings are read in the back office; they change only through the services (audited)."""

from django.contrib import admin

from fogcontrol.findings.models import Finding


@admin.register(Finding)
class FindingAdmin(admin.ModelAdmin):
    list_display = ("provision", "establishment", "began_on", "closed_on", "source", "source_id")
    list_filter = ("provision", "source")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
