"""FilterSets of the later steps' lists: hearings by case, kind and whether decided; penalty orders by
case and status; terminations by case."""

import django_filters

from fogcontrol.core.api.filters import IdFilter
from fogcontrol.enforcement.models import AdministrativeComplaint, Hearing, PenaltyOrder, ServiceTermination


class HearingFilter(django_filters.FilterSet):
    case = IdFilter(field_name="case_id")
    kind = django_filters.ChoiceFilter(choices=Hearing.Kind.choices)
    decided = django_filters.BooleanFilter(field_name="decided_on", lookup_expr="isnull", exclude=True)
    scheduled_from = django_filters.DateFilter(field_name="scheduled_on", lookup_expr="gte")
    scheduled_to = django_filters.DateFilter(field_name="scheduled_on", lookup_expr="lte")

    class Meta:
        model = Hearing
        fields = ["case", "kind", "decided", "scheduled_from", "scheduled_to"]


class ComplaintFilter(django_filters.FilterSet):
    case = IdFilter(field_name="case_id")

    class Meta:
        model = AdministrativeComplaint
        fields = ["case"]


class PenaltyOrderFilter(django_filters.FilterSet):
    case = IdFilter(field_name="case_id")
    status = django_filters.ChoiceFilter(choices=PenaltyOrder.Status.choices)

    class Meta:
        model = PenaltyOrder
        fields = ["case", "status"]


class TerminationFilter(django_filters.FilterSet):
    case = IdFilter(field_name="case_id")

    class Meta:
        model = ServiceTermination
        fields = ["case"]
