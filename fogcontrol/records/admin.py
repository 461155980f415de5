"""The FSE's records are read in the back office; they change only through the services (audited),
and submissions are copies of record that nothing may change."""

from django.contrib import admin

from fogcontrol.records.models import OilPickup, RecordRequirement, RecordSubmission, TrainingSession


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(TrainingSession)
class TrainingSessionAdmin(ReadOnlyAdmin):
    list_display = ("establishment", "held_on", "trainer", "language")


@admin.register(OilPickup)
class OilPickupAdmin(ReadOnlyAdmin):
    list_display = ("establishment", "picked_up_on", "gallons", "hauler", "recycler_name")


@admin.register(RecordRequirement)
class RecordRequirementAdmin(ReadOnlyAdmin):
    list_display = ("establishment", "kind", "unit", "every", "first_due_on", "ends_on")
    list_filter = ("kind",)


@admin.register(RecordSubmission)
class RecordSubmissionAdmin(ReadOnlyAdmin):
    list_display = ("requirement", "period_number", "received_at", "original_name", "record_sequence")
