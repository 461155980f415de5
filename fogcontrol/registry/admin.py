"""Django admin for back-office repairs only: everyday work happens in the program's own pages,
whose writes go through the audited services."""

from django.contrib import admin

from fogcontrol.registry.models import (
    FoodServiceEstablishment,
    GreaseControlDevice,
    HaulerCompany,
    HaulerVehicle,
    Parcel,
    Party,
    ReceivingFacility,
)


@admin.register(FoodServiceEstablishment)
class EstablishmentAdmin(admin.ModelAdmin):
    list_display = ("business_name", "licence_number", "site_address", "status")
    list_filter = ("status", "category")
    search_fields = ("business_name", "licence_number", "site_address")
    raw_id_fields = ("parcel", "operator", "contact")
    filter_horizontal = ("users", "haulers")


@admin.register(GreaseControlDevice)
class DeviceAdmin(admin.ModelAdmin):
    list_display = ("identifier", "kind", "capacity_gallons", "status")
    list_filter = ("kind", "status")
    search_fields = ("identifier", "location_description")
    raw_id_fields = ("parcel",)
    filter_horizontal = ("establishments",)


@admin.register(Parcel)
class ParcelAdmin(admin.ModelAdmin):
    list_display = ("apn", "situs_address", "owner")
    search_fields = ("apn", "situs_address")
    raw_id_fields = ("owner", "owner_designee")
    filter_horizontal = ("owner_users",)


@admin.register(Party)
class PartyAdmin(admin.ModelAdmin):
    list_display = ("name", "kind", "email", "phone")
    search_fields = ("name", "email")


class VehicleInline(admin.TabularInline):
    model = HaulerVehicle
    extra = 0


@admin.register(HaulerCompany)
class HaulerAdmin(admin.ModelAdmin):
    list_display = ("name", "state_registration_number", "active")
    search_fields = ("name", "state_registration_number")
    inlines = [VehicleInline]
    filter_horizontal = ("users",)


@admin.register(ReceivingFacility)
class FacilityAdmin(admin.ModelAdmin):
    list_display = ("name", "permit_number", "active")
