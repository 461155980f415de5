"""Django admin for looking things up; permits are worked on /permits/ through the services.

Everything here is read-only. Applications, permits and their versions, fee schedules and fees
carry regulated states and terms (B3-B8, Q1) that change only through the permit services, with
their notices and an audit entry; a submitted application is a copy of record.
"""

from django.contrib import admin

from fogcontrol.permits.models import FeeCharge, FeeSchedule, Permit, PermitApplication


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(PermitApplication)
class ApplicationAdmin(ReadOnlyAdmin):
    list_display = ("reference", "establishment", "kind", "status", "submitted_at")
    list_filter = ("status", "kind")
    search_fields = ("reference", "establishment__business_name")
    raw_id_fields = ("establishment", "device", "permit")


@admin.register(Permit)
class PermitAdmin(ReadOnlyAdmin):
    list_display = ("number", "establishment", "status")
    list_filter = ("status",)
    search_fields = ("number", "establishment__business_name")
    raw_id_fields = ("establishment", "device")


@admin.register(FeeSchedule)
class FeeScheduleAdmin(ReadOnlyAdmin):
    list_display = ("effective_from",)


@admin.register(FeeCharge)
class FeeChargeAdmin(ReadOnlyAdmin):
    list_display = ("establishment", "kind", "amount", "status")
    list_filter = ("status", "kind")
    raw_id_fields = ("establishment",)
