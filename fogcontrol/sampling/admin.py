"""Sampling records are read in the back office; they change only through the services (audited)."""

from django.contrib import admin

from fogcontrol.sampling.models import DischargeLimit, LabResult, MonitoringFacility, Sample


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Sample)
class SampleAdmin(ReadOnly):
    list_display = ("pk", "establishment", "kind", "sampled_at", "laboratory")
    list_filter = ("kind",)


@admin.register(LabResult)
class LabResultAdmin(ReadOnly):
    list_display = ("sample", "analyte", "value", "unit", "outside", "provision")
    list_filter = ("analyte", "outside")


@admin.register(DischargeLimit)
class DischargeLimitAdmin(ReadOnly):
    list_display = ("establishment", "analyte", "min_value", "max_value", "unit", "effective_from")


@admin.register(MonitoringFacility)
class MonitoringFacilityAdmin(ReadOnly):
    list_display = ("establishment", "kind", "required_on", "due_on", "installed_on")
