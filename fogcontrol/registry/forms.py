"""Registry forms: they check and render input; the services validate the record and write it.

A registry form never changes its instance: Django's ModelForm would copy the input onto the
instance while validating, before the service takes its "before" snapshot for the audit trail.
So model validation (`full_clean`, uniqueness, constraints) is left to the service, and a
ValidationError it raises is put back beside the field it names
(`fogcontrol.core.forms.show_service_errors`).
"""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.concurrency import VERSION_FIELD, Versioned, VersionedFormMixin
from fogcontrol.core.languages import DEFAULT_LANGUAGE
from fogcontrol.core.roles import Role
from fogcontrol.registry.models import (
    FoodServiceEstablishment,
    GreaseControlDevice,
    HaulerCompany,
    HaulerVehicle,
    Parcel,
    Party,
)


def _accounts(role: str):
    return get_user_model().objects.filter(role=role, is_active=True).order_by("username")


class RegistryForm(VersionedFormMixin, forms.ModelForm):
    """A ModelForm whose data goes to a service as keyword arguments. Editing a record, it carries
    the version it was opened at, given to the service as `expected_version` (core/concurrency.py)."""

    # Many-to-many fields, passed to the service as their own keyword arguments.
    many: tuple[str, ...] = ()

    def _post_clean(self):
        # Model validation is the service's (it runs full_clean on the record it saves).
        pass

    def service_kwargs(self) -> dict:
        data = dict(self.cleaned_data)
        version = data.pop(VERSION_FIELD, None)
        if self.instance.pk is not None and isinstance(self.instance, Versioned):
            data["expected_version"] = version
        return data


class PartyForm(RegistryForm):
    class Meta:
        model = Party
        fields = [
            "kind",
            "name",
            "contact_name",
            "email",
            "preferred_language",
            "phone",
            "mailing_address_line1",
            "mailing_address_line2",
            "mailing_city",
            "mailing_state",
            "mailing_postal_code",
            "notes",
        ]
        widgets = {"notes": forms.Textarea(attrs={"rows": 3})}
        labels = {"preferred_language": _("Language for e-mail")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Left out (an older form, a program posting the fields it knows): English, the default.
        self.fields["preferred_language"].required = False

    def clean_preferred_language(self):
        return self.cleaned_data.get("preferred_language") or DEFAULT_LANGUAGE


class ParcelForm(RegistryForm):
    many = ("owner_users",)

    class Meta:
        model = Parcel
        fields = ["apn", "situs_address", "city", "postal_code", "owner", "owner_designee", "owner_users"]
        labels = {
            "owner_designee": _("Owner's official designee (A2)"),
            "owner_users": _("Property owner accounts"),
        }
        help_texts = {
            "owner_designee": _("Receives the installation and maintenance notices for shared devices (A2)."),
            "owner_users": _("Portal accounts that may see this parcel, its FSEs and devices."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["owner_users"].queryset = _accounts(Role.PROPERTY_OWNER)


class EstablishmentForm(RegistryForm):
    many = ("users", "haulers")

    class Meta:
        model = FoodServiceEstablishment
        fields = [
            "business_name",
            "licence_number",
            "licence_expires_on",
            "site_address",
            "parcel",
            "operator",
            "contact",
            "category",
            "food_types",
            "meals_per_day",
            "dining_capacity",
            "employees",
            "kitchen_size_sqft",
            "food_preparation_hours",
            "cleaning_hours",
            "latitude",
            "longitude",
            "haulers",
            "users",
        ]
        labels = {"users": _("FSE accounts"), "haulers": _("Grease haulers engaged")}
        help_texts = {"users": _("Portal accounts of the business that may see this FSE.")}
        widgets = {"licence_expires_on": forms.DateInput(attrs={"type": _("date")}, format="%Y-%m-%d")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["users"].queryset = _accounts(Role.FSE)
        self.fields["parcel"].queryset = Parcel.objects.order_by("apn")


class DeviceForm(RegistryForm):
    many = ("establishments",)

    class Meta:
        model = GreaseControlDevice
        fields = [
            "identifier",
            "kind",
            "status",
            "establishments",
            "parcel",
            "capacity_gallons",
            "rated_flow_gpm",
            "total_design_depth_in",
            "compartments",
            "manhole_diameter_in",
            "location_description",
            "access_notes",
            "installed_on",
            "building_permit_number",
        ]
        labels = {"establishments": _("FSEs served")}
        help_texts = {
            "establishments": _("A device serving several FSEs on one parcel is the property owner's (A2)."),
            "compartments": _("Grease interceptors need at least the Town's minimum (A4)."),
            "manhole_diameter_in": _(
                "Grease interceptors need an access manhole of the Town's minimum (A4)."
            ),
        }
        widgets = {
            "installed_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "access_notes": forms.Textarea(attrs={"rows": 3}),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["establishments"].queryset = FoodServiceEstablishment.objects.order_by("business_name")
        self.fields["establishments"].widget.attrs["size"] = 8
        self.fields["parcel"].queryset = Parcel.objects.order_by("apn")


class HaulerForm(RegistryForm):
    many = ("users",)

    class Meta:
        model = HaulerCompany
        fields = [
            "name",
            "state_registration_number",
            "licence_number",
            "phone",
            "email",
            "address",
            "active",
            "users",
        ]
        labels = {"users": _("Hauler accounts")}
        help_texts = {"users": _("Portal accounts that submit this company's manifests.")}
        widgets = {"address": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["users"].queryset = _accounts(Role.HAULER)


class VehicleForm(RegistryForm):
    class Meta:
        model = HaulerVehicle
        fields = ["plate", "description", "tank_capacity_gallons", "active"]
