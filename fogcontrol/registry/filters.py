"""One FilterSet per list: the same filters serve the pages (`?status=active`) and the API."""

import django_filters
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django_filters.widgets import BooleanWidget

from fogcontrol.core.api.filters import IdFilter
from fogcontrol.registry.models import (
    FoodServiceEstablishment,
    GreaseControlDevice,
    HaulerCompany,
    Parcel,
    Party,
    ReceivingFacility,
)
from fogcontrol.registry.selectors import establishments_matching


class YesNoWidget(BooleanWidget):
    """django-filter's yes/no select with its choices from our catalogues (docs/i18n.md)."""

    def __init__(self, attrs=None):
        super().__init__(attrs)
        self.choices = [("", _("Unknown")), ("true", _("Yes")), ("false", _("No"))]


# Accepts 1/0, true/false, yes/no: the links on the home page use ?shared=1.
YES_NO = YesNoWidget()


class EstablishmentFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(method="search", label=_("Search"))
    status = django_filters.ChoiceFilter(choices=FoodServiceEstablishment.Status.choices)
    category = django_filters.ChoiceFilter(choices=FoodServiceEstablishment.Category.choices)
    parcel = IdFilter(field_name="parcel_id")
    apn = django_filters.CharFilter(field_name="parcel__apn", lookup_expr="iexact", label=_("Parcel number"))
    licence_expires_before = django_filters.DateFilter(
        field_name="licence_expires_on", lookup_expr="lt", label=_("Business licence expires is less than")
    )
    has_device = django_filters.BooleanFilter(
        widget=YES_NO, method="filter_has_device", label=_("Has a device")
    )

    class Meta:
        model = FoodServiceEstablishment
        fields = ["q", "status", "category", "parcel", "apn", "licence_expires_before", "has_device"]

    def search(self, queryset, name, value):
        value = value.strip()
        if not value:
            return queryset
        return queryset.filter(establishments_matching(value))

    def filter_has_device(self, queryset, name, value):
        if value is None:
            return queryset
        with_device = GreaseControlDevice.objects.filter(establishments__isnull=False).values(
            "establishments"
        )
        return queryset.filter(pk__in=with_device) if value else queryset.exclude(pk__in=with_device)


class DeviceFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(method="search", label=_("Search"))
    kind = django_filters.ChoiceFilter(choices=GreaseControlDevice.Kind.choices)
    status = django_filters.ChoiceFilter(choices=GreaseControlDevice.Status.choices)
    establishment = IdFilter(field_name="establishments", label=_("Establishment id"))
    parcel = IdFilter(field_name="parcel_id")
    flagged = django_filters.BooleanFilter(
        widget=YES_NO, method="filter_flagged", label=_("Below A4 minimums")
    )
    shared = django_filters.BooleanFilter(
        widget=YES_NO, method="filter_shared", label=_("Serves several FSEs (A2)")
    )

    class Meta:
        model = GreaseControlDevice
        fields = ["q", "kind", "status", "establishment", "parcel", "flagged", "shared"]

    def search(self, queryset, name, value):
        value = value.strip()
        if not value:
            return queryset
        matching = GreaseControlDevice.objects.filter(
            Q(identifier__icontains=value)
            | Q(location_description__icontains=value)
            | Q(parcel__apn__icontains=value)
            | Q(establishments__business_name__icontains=value)
        ).values("pk")
        return queryset.filter(pk__in=matching)

    def filter_flagged(self, queryset, name, value):
        if value is None:
            return queryset
        return queryset.exclude(a4_flags=[]) if value else queryset.filter(a4_flags=[])

    def filter_shared(self, queryset, name, value):
        if value is None:
            return queryset
        return queryset.shared(value)


class ParcelFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(method="search", label=_("Search"))

    class Meta:
        model = Parcel
        fields = ["q"]

    def search(self, queryset, name, value):
        value = value.strip()
        if not value:
            return queryset
        return queryset.filter(
            Q(apn__icontains=value) | Q(situs_address__icontains=value) | Q(owner__name__icontains=value)
        )


class HaulerFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(field_name="name", lookup_expr="icontains", label=_("Search"))
    active = django_filters.BooleanFilter(
        widget=YES_NO,
    )

    class Meta:
        model = HaulerCompany
        fields = ["q", "active"]


class PartyFilter(django_filters.FilterSet):
    """Contacts: owners, designees, operators (staff pages only)."""

    q = django_filters.CharFilter(method="search", label=_("Search"))
    kind = django_filters.ChoiceFilter(choices=Party.Kind.choices)

    class Meta:
        model = Party
        fields = ["q", "kind"]

    def search(self, queryset, name, value):
        value = value.strip()
        if not value:
            return queryset
        return queryset.filter(
            Q(name__icontains=value)
            | Q(contact_name__icontains=value)
            | Q(email__icontains=value)
            | Q(phone__icontains=value)
        )


class FacilityFilter(django_filters.FilterSet):
    """Receiving facilities (E7, F5)."""

    active = django_filters.BooleanFilter(widget=YES_NO)

    class Meta:
        model = ReceivingFacility
        fields = ["active"]
