"""One FilterSet for the findings list, pages and API alike."""

import django_filters
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.api.filters import IdFilter, RecordFilter
from fogcontrol.findings.models import Finding
from fogcontrol.registry.models import FoodServiceEstablishment


class FindingFilter(django_filters.FilterSet):
    establishment = RecordFilter(model=FoodServiceEstablishment, what="establishment")
    device = IdFilter(field_name="device_id", label=_("Device id"))
    open = django_filters.BooleanFilter(field_name="closed_on", lookup_expr="isnull", label=_("Open"))
    provision = django_filters.CharFilter(field_name="provision", label=_("Provision (e.g. C1)"))
    source = django_filters.ChoiceFilter(choices=Finding.Source.choices)
    source_id = IdFilter(field_name="source_id", label=_("Source id"))
    began_from = django_filters.DateFilter(field_name="began_on", lookup_expr="gte")
    began_to = django_filters.DateFilter(field_name="began_on", lookup_expr="lte")

    class Meta:
        model = Finding
        fields = [
            "establishment",
            "device",
            "open",
            "provision",
            "source",
            "source_id",
            "began_from",
            "began_to",
        ]
