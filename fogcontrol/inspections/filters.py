"""One FilterSet for the inspections list, pages and API alike."""

import django_filters
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.api.filters import IdFilter, RecordFilter
from fogcontrol.inspections.models import ComplianceCharge, Inspection
from fogcontrol.registry.models import FoodServiceEstablishment


class InspectionFilter(django_filters.FilterSet):
    establishment = RecordFilter(model=FoodServiceEstablishment, what="establishment")
    status = django_filters.ChoiceFilter(choices=Inspection.Status.choices)
    kind = django_filters.ChoiceFilter(choices=Inspection.Kind.choices)
    inspector = IdFilter(field_name="inspector_id", label=_("Inspector id"))
    scheduled_on = django_filters.DateFilter()
    scheduled_from = django_filters.DateFilter(field_name="scheduled_on", lookup_expr="gte")
    scheduled_to = django_filters.DateFilter(field_name="scheduled_on", lookup_expr="lte")
    visited_from = django_filters.DateFilter(field_name="visited_on", lookup_expr="gte")
    visited_to = django_filters.DateFilter(field_name="visited_on", lookup_expr="lte")

    class Meta:
        model = Inspection
        fields = [
            "establishment",
            "status",
            "kind",
            "inspector",
            "scheduled_on",
            "scheduled_from",
            "scheduled_to",
            "visited_from",
            "visited_to",
        ]


class ComplianceChargeFilter(django_filters.FilterSet):
    establishment = RecordFilter(model=FoodServiceEstablishment, what="establishment")
    kind = django_filters.ChoiceFilter(choices=ComplianceCharge.Kind.choices)
    status = django_filters.ChoiceFilter(choices=ComplianceCharge.Status.choices)
    inspection = IdFilter(field_name="inspection_id", label=_("Inspection id"))
    sample = IdFilter(field_name="sample_id", label=_("Sample id"))
    incurred_from = django_filters.DateFilter(
        field_name="incurred_on", lookup_expr="gte", label=_("Incurred on is greater than or equal to")
    )
    incurred_to = django_filters.DateFilter(
        field_name="incurred_on", lookup_expr="lte", label=_("Incurred on is less than or equal to")
    )

    class Meta:
        model = ComplianceCharge
        fields = ["establishment", "kind", "status", "inspection", "sample", "incurred_from", "incurred_to"]
