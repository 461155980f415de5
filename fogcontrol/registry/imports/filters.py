"""The report's filters, shared by the report page and the API (`?outcome=rejected&q=...`)."""

import django_filters
from django.db.models import Q

from fogcontrol.registry.models import LicenceImportRow


class ImportRowFilter(django_filters.FilterSet):
    outcome = django_filters.ChoiceFilter(choices=LicenceImportRow.Outcome.choices)
    q = django_filters.CharFilter(method="search", label="Licence or name")

    class Meta:
        model = LicenceImportRow
        fields = ["outcome", "q"]

    def search(self, queryset, name, value):
        value = value.strip()
        if not value:
            return queryset
        return queryset.filter(Q(licence_number__icontains=value) | Q(business_name__icontains=value))
