"""Django admin for back-office repairs; permits are worked on /permits/ through the services."""

from django.contrib import admin

from fogcontrol.permits.models import FeeCharge, FeeSchedule, Permit, PermitApplication


@admin.register(PermitApplication)
class ApplicationAdmin(admin.ModelAdmin):
    list_display = ("reference", "establishment", "kind", "status", "submitted_at")
    list_filter = ("status", "kind")
    search_fields = ("reference", "establishment__business_name")
    raw_id_fields = ("establishment", "device", "permit")


@admin.register(Permit)
class PermitAdmin(admin.ModelAdmin):
    list_display = ("number", "establishment", "status")
    list_filter = ("status",)
    search_fields = ("number", "establishment__business_name")
    raw_id_fields = ("establishment", "device")


@admin.register(FeeSchedule)
class FeeScheduleAdmin(admin.ModelAdmin):
    list_display = ("effective_from",)


@admin.register(FeeCharge)
class FeeChargeAdmin(admin.ModelAdmin):
    list_display = ("establishment", "kind", "amount", "status")
    list_filter = ("status", "kind")
    raw_id_fields = ("establishment",)
