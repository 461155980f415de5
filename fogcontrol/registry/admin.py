"""Django admin for back-office repairs only: everyday work happens in the program's own pages,
whose writes go through the audited services.

Every save here goes through the same registry service (the same checks, and an audit entry with
before and after, naming the admin user). Regulated fields are read-only: a device's assigned
frequency changes only through the B7 notice workflow, its A4 flags are computed, and an
establishment's licence comes from the business licence records (A1, B6). Nothing is deleted
here: records keep their history (an FSE is closed, a device removed, on the registry pages).
"""

from django.contrib import admin

from fogcontrol.registry import services
from fogcontrol.registry.models import (
    FoodServiceEstablishment,
    GreaseControlDevice,
    HaulerCompany,
    HaulerVehicle,
    Parcel,
    Party,
    ReceivingFacility,
)


class ThroughServicesAdmin(admin.ModelAdmin):
    """Saves through ``create_service`` / ``update_service`` (which audit), never ``obj.save()``."""

    create_service = None
    update_service = None
    record_argument = ""  # the update service's name for the record, e.g. "device"

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        # Only what the form changed goes to the service (all of it for a new record), so the
        # audit entry shows exactly the repair; many-to-many sets go with it.
        names = form.changed_data if change else list(form.cleaned_data)
        fields = {name: form.cleaned_data[name] for name in names if name in form.cleaned_data}
        if change:
            record = type(obj)._default_manager.get(pk=obj.pk)
            saved = self.update_service(**{self.record_argument: record}, acting_user=request.user, **fields)
        else:
            saved = self.create_service(acting_user=request.user, **fields)
        obj.pk = saved.pk
        obj._state.adding = False

    def save_related(self, request, form, formsets, change):
        # The service already set the many-to-many fields, with the record and in its audit entry.
        for formset in formsets:
            self.save_formset(request, form, formset, change=change)


@admin.register(FoodServiceEstablishment)
class EstablishmentAdmin(ThroughServicesAdmin):
    list_display = ("business_name", "licence_number", "site_address", "status")
    list_filter = ("status", "category")
    search_fields = ("business_name", "licence_number", "site_address")
    raw_id_fields = ("parcel", "operator", "contact")
    filter_horizontal = ("users", "haulers")
    # A1, B6: the licence is as in the Town's business licence records (the licence import).
    readonly_fields = ("licence_number", "licence_expires_on")
    create_service = staticmethod(services.establishment_create)
    update_service = staticmethod(services.establishment_update)
    record_argument = "establishment"

    def get_readonly_fields(self, request, obj=None):
        # A new establishment needs its licence number; afterwards it follows the licence records.
        return self.readonly_fields if obj is not None else ()


@admin.register(GreaseControlDevice)
class DeviceAdmin(ThroughServicesAdmin):
    list_display = ("identifier", "kind", "capacity_gallons", "status")
    list_filter = ("kind", "status")
    search_fields = ("identifier", "location_description")
    raw_id_fields = ("parcel",)
    filter_horizontal = ("establishments",)
    # B7: the frequency changes only by a notice to the permittee (the frequency change workflow);
    # A4: the flags are computed from the device's construction.
    readonly_fields = ("assigned_frequency_days", "a4_flags")
    create_service = staticmethod(services.device_create)
    update_service = staticmethod(services.device_update)
    record_argument = "device"


@admin.register(Parcel)
class ParcelAdmin(ThroughServicesAdmin):
    list_display = ("apn", "situs_address", "owner")
    search_fields = ("apn", "situs_address")
    raw_id_fields = ("owner", "owner_designee")
    filter_horizontal = ("owner_users",)
    create_service = staticmethod(services.parcel_create)
    update_service = staticmethod(services.parcel_update)
    record_argument = "parcel"


@admin.register(Party)
class PartyAdmin(ThroughServicesAdmin):
    list_display = ("name", "kind", "email", "phone")
    search_fields = ("name", "email")
    create_service = staticmethod(services.party_create)
    update_service = staticmethod(services.party_update)
    record_argument = "party"


class VehicleInline(admin.TabularInline):
    """Shown with the hauler; vehicles are added and repaired on their own admin page (audited)."""

    model = HaulerVehicle
    extra = 0
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(HaulerCompany)
class HaulerAdmin(ThroughServicesAdmin):
    list_display = ("name", "state_registration_number", "active")
    search_fields = ("name", "state_registration_number")
    inlines = [VehicleInline]
    filter_horizontal = ("users",)
    create_service = staticmethod(services.hauler_create)
    update_service = staticmethod(services.hauler_update)
    record_argument = "hauler"


@admin.register(HaulerVehicle)
class VehicleAdmin(ThroughServicesAdmin):
    list_display = ("plate", "hauler", "description", "active")
    list_select_related = ("hauler",)
    search_fields = ("plate", "hauler__name")
    raw_id_fields = ("hauler",)
    create_service = staticmethod(services.vehicle_create)
    update_service = staticmethod(services.vehicle_update)
    record_argument = "vehicle"


@admin.register(ReceivingFacility)
class FacilityAdmin(ThroughServicesAdmin):
    list_display = ("name", "permit_number", "active")
    create_service = staticmethod(services.facility_create)
    update_service = staticmethod(services.facility_update)
    record_argument = "facility"
