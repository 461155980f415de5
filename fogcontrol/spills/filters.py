"""One FilterSet per list, pages and API alike."""

import django_filters
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.api.filters import IdFilter, RecordFilter
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.rules import spills as rules
from fogcontrol.spills.models import Spill, SpillReport


class SpillFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(method="search", label=_("Search (address, place, State spill id)"))
    establishment = RecordFilter(
        model=FoodServiceEstablishment, what="establishment", field_name="links__establishment"
    )
    kind = django_filters.ChoiceFilter(choices=Spill.Kind.choices)
    category = django_filters.ChoiceFilter(
        choices=[(key, _(label)) for key, label in rules.CATEGORY_LABELS.items()]
    )
    cause = django_filters.ChoiceFilter(choices=[(key, _(label)) for key, label in rules.CAUSES.items()])
    source = django_filters.ChoiceFilter(choices=Spill.Source.choices)
    agency = django_filters.CharFilter(field_name="agency_wdid", label=_("Agency WDID"))
    started_from = django_filters.DateFilter(field_name="started_at", lookup_expr="date__gte")
    started_to = django_filters.DateFilter(field_name="started_at", lookup_expr="date__lte")
    flagged = django_filters.BooleanFilter(method="only_flagged", label=_("Flagged by the import"))

    class Meta:
        model = Spill
        fields = [
            "q",
            "establishment",
            "kind",
            "category",
            "cause",
            "source",
            "agency",
            "started_from",
            "started_to",
        ]

    def search(self, queryset, name, value):
        value = value.strip()
        if not value:
            return queryset
        return queryset.filter(
            Q(address__icontains=value) | Q(location_name__icontains=value) | Q(state_spill_id=value)
        )

    def only_flagged(self, queryset, name, value):
        if value is None:
            return queryset
        return queryset.exclude(flags=[]) if value else queryset.filter(flags=[])


class SpillReportFilter(django_filters.FilterSet):
    establishment = RecordFilter(model=FoodServiceEstablishment, what="establishment")
    spill = IdFilter(field_name="spill_id", label=_("Spill id"))
    written = django_filters.BooleanFilter(
        field_name="written", lookup_expr="isnull", exclude=True, label=_("Written report received")
    )

    class Meta:
        model = SpillReport
        fields = ["establishment", "spill", "written"]
