"""One FilterSet for the documents list, pages and API alike."""

import django_filters
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.api.filters import IdFilter, RecordFilter
from fogcontrol.notices.catalogue import all_registered
from fogcontrol.notices.models import IssuedDocument
from fogcontrol.registry.models import FoodServiceEstablishment


def document_kinds():
    """Each registered document by its title, in the page's language (core/derived_labels.py)."""
    return [(registration.key, _(registration.title)) for registration in all_registered()]


class DocumentFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(method="search", label=_("Search"))
    key = django_filters.ChoiceFilter(choices=document_kinds, label=_("Document"))
    establishment = RecordFilter(model=FoodServiceEstablishment, what="establishment")
    subject_id = IdFilter(field_name="subject_id", label=_("Subject id"))
    served = django_filters.BooleanFilter(method="served_filter", label=_("Served"))
    issued_from = django_filters.DateFilter(field_name="issued_on", lookup_expr="gte")
    issued_to = django_filters.DateFilter(field_name="issued_on", lookup_expr="lte")

    class Meta:
        model = IssuedDocument
        fields = ["q", "key", "establishment", "subject_id", "served", "issued_from", "issued_to"]

    def search(self, queryset, name, value):
        value = value.strip()
        if not value:
            return queryset
        return queryset.filter(
            Q(title__icontains=value)
            | Q(addressee__icontains=value)
            | Q(establishment__business_name__icontains=value)
        )

    def served_filter(self, queryset, name, value):
        if value is None:
            return queryset
        return queryset.served(value)
