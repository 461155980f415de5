"""One FilterSet per list, shared by the pages (`?status=overdue`) and the API."""

import django_filters
from django.db.models import Exists, OuterRef, Q
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.api.filters import IdFilter
from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.rules.devices import DEVICE_STATUSES
from fogcontrol.servicing.models import FrequencyChangeRequest, Manifest, ManifestFlag, ServiceRequirement

STATUS_CHOICES = [(status, _(status.replace("_", " ").capitalize())) for status in DEVICE_STATUSES]


class ManifestFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(method="search", label=_("Search"))
    device = IdFilter(field_name="device_id", label=_("Device id"))
    hauler = IdFilter(field_name="hauler_id", label=_("Hauler id"))
    establishment = IdFilter(field_name="establishment_id", label=_("Establishment id"))
    serviced_from = django_filters.DateFilter(
        field_name="service_date", lookup_expr="gte", label=_("Serviced from")
    )
    serviced_to = django_filters.DateFilter(
        field_name="service_date", lookup_expr="lte", label=_("Serviced to")
    )
    channel = django_filters.ChoiceFilter(choices=Manifest.Channel.choices)
    full_pumpout = django_filters.BooleanFilter()
    flagged = django_filters.BooleanFilter(method="filter_flagged", label=_("Has flags to review"))

    class Meta:
        model = Manifest
        fields = [
            "q",
            "device",
            "hauler",
            "establishment",
            "serviced_from",
            "serviced_to",
            "channel",
            "full_pumpout",
            "flagged",
        ]

    def search(self, queryset, name, value):
        value = value.strip()
        if not value:
            return queryset
        return queryset.filter(
            Q(manifest_number__icontains=value)
            | Q(device__identifier__icontains=value)
            | Q(site_address__icontains=value)
            | Q(hauler_name__icontains=value)
        )

    def filter_flagged(self, queryset, name, value):
        if value is None:
            return queryset
        open_flags = Exists(
            ManifestFlag.objects.filter(manifest=OuterRef("pk"), review=ManifestFlag.Review.OPEN)
        )
        return queryset.filter(open_flags) if value else queryset.exclude(open_flags)


class ServiceStatusFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(method="search", label=_("Search"))
    status = django_filters.ChoiceFilter(choices=STATUS_CHOICES, method="filter_status")
    kind = django_filters.ChoiceFilter(choices=GreaseControlDevice.Kind.choices)
    due_by = django_filters.DateFilter(
        field_name="service_state__next_due", lookup_expr="lte", label=_("Due by")
    )

    class Meta:
        model = GreaseControlDevice
        fields = ["q", "status", "kind", "due_by"]

    def search(self, queryset, name, value):
        value = value.strip()
        if not value:
            return queryset
        matching = GreaseControlDevice.objects.filter(
            Q(identifier__icontains=value) | Q(establishments__business_name__icontains=value)
        ).values("pk")
        return queryset.filter(pk__in=matching)

    def filter_status(self, queryset, name, value):
        if value == "never_serviced":  # a device with no state row yet has never been serviced
            return queryset.filter(Q(service_state__isnull=True) | Q(service_state__status=value))
        return queryset.filter(service_state__status=value)


class FlagFilter(django_filters.FilterSet):
    review = django_filters.ChoiceFilter(choices=ManifestFlag.Review.choices)
    code = django_filters.CharFilter()

    class Meta:
        model = ManifestFlag
        fields = ["review", "code"]


class RequirementFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=ServiceRequirement.Status.choices)
    kind = django_filters.ChoiceFilter(choices=ServiceRequirement.Kind.choices)
    device = IdFilter(field_name="device_id")

    class Meta:
        model = ServiceRequirement
        fields = ["status", "kind", "device"]


class FrequencyRequestFilter(django_filters.FilterSet):
    """E5 requests by status (`?status=pending`: those waiting for the FOG Manager's decision)."""

    status = django_filters.ChoiceFilter(choices=FrequencyChangeRequest.Status.choices)
    device = IdFilter(field_name="device_id", label=_("Device id"))

    class Meta:
        model = FrequencyChangeRequest
        fields = ["status", "device"]
