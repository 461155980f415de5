"""One FilterSet per list, pages and API alike."""

import django_filters
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.api.filters import IdFilter, RecordFilter
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.sampling.models import Analyte, DischargeLimit, MonitoringFacility, Sample


class SampleFilter(django_filters.FilterSet):
    establishment = RecordFilter(model=FoodServiceEstablishment, what="establishment")
    kind = django_filters.ChoiceFilter(choices=Sample.Kind.choices)
    inspection = IdFilter(field_name="inspection_id", label=_("Inspection id"))
    outside = django_filters.BooleanFilter(method="filter_outside", label=_("A result outside its limit"))
    sampled_from = django_filters.DateFilter(
        field_name="sampled_at",
        lookup_expr="date__gte",
        label=_("Sampled at date is greater than or equal to"),
    )
    sampled_to = django_filters.DateFilter(
        field_name="sampled_at", lookup_expr="date__lte", label=_("Sampled at date is less than or equal to")
    )

    class Meta:
        model = Sample
        fields = ["establishment", "kind", "inspection", "outside", "sampled_from", "sampled_to"]

    def filter_outside(self, queryset, name, value):
        if value is None:
            return queryset
        return queryset.filter(outside_count__gt=0) if value else queryset.filter(outside_count=0)


class DischargeLimitFilter(django_filters.FilterSet):
    establishment = RecordFilter(model=FoodServiceEstablishment, what="establishment")
    analyte = django_filters.ChoiceFilter(choices=Analyte.choices)

    class Meta:
        model = DischargeLimit
        fields = ["establishment", "analyte"]


class MonitoringFacilityFilter(django_filters.FilterSet):
    establishment = RecordFilter(model=FoodServiceEstablishment, what="establishment")
    kind = django_filters.ChoiceFilter(choices=MonitoringFacility.Kind.choices)
    installed = django_filters.BooleanFilter(
        field_name="installed_on", lookup_expr="isnull", exclude=True, label=_("Exclude installed on is null")
    )

    class Meta:
        model = MonitoringFacility
        fields = ["establishment", "kind", "installed"]
