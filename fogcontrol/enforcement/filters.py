"""The FilterSets of enforcement lists, pages and API alike."""

import django_filters
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.api.filters import RecordFilter
from fogcontrol.enforcement.models import Case, Violation
from fogcontrol.enforcement.querysets import CASE_STAGE_CHOICES
from fogcontrol.registry.models import FoodServiceEstablishment


class ViolationFilter(django_filters.FilterSet):
    establishment = RecordFilter(model=FoodServiceEstablishment, what="establishment")
    open = django_filters.BooleanFilter(
        field_name="cured_on", lookup_expr="isnull", label=_("Open (not cured)")
    )
    provision = django_filters.CharFilter(
        field_name="provision", lookup_expr="iexact", label=_("Provision (e.g. E1)")
    )
    source = django_filters.ChoiceFilter(choices=Violation.Source.choices)
    kind = django_filters.ChoiceFilter(choices=Violation.Kind.choices)

    class Meta:
        model = Violation
        fields = ["establishment", "open", "provision", "source", "kind"]


class CaseFilter(django_filters.FilterSet):
    establishment = RecordFilter(model=FoodServiceEstablishment, what="establishment")
    open = django_filters.BooleanFilter(field_name="closed_on", lookup_expr="isnull", label=_("Open"))
    stage = django_filters.ChoiceFilter(
        choices=CASE_STAGE_CHOICES, method="filter_stage", label=_("Stage (furthest step)")
    )

    class Meta:
        model = Case
        fields = ["establishment", "open", "stage"]

    def filter_stage(self, queryset, name, value):
        return queryset.with_stage().filter(stage=value) if value else queryset
