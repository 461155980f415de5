"""One FilterSet per billing list, for pages and API alike."""

import django_filters
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from fogcontrol.billing.models import Invoice, InvoiceKind, Lien, Payment
from fogcontrol.core.api.filters import IdFilter, RecordFilter
from fogcontrol.registry.models import FoodServiceEstablishment


class AccountFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(method="search", label=_("Search"))
    establishment = RecordFilter(model=FoodServiceEstablishment, what="establishment")

    def search(self, queryset, name, value):
        return queryset.filter(
            Q(establishment__business_name__icontains=value)
            | Q(establishment__licence_number__icontains=value)
            | Q(party__name__icontains=value)
        )


class InvoiceFilter(django_filters.FilterSet):
    debtor = IdFilter(field_name="debtor_id", label=_("Account id"))
    establishment = RecordFilter(model=FoodServiceEstablishment, what="establishment")
    status = django_filters.ChoiceFilter(choices=Invoice.Status.choices)
    kind = django_filters.ChoiceFilter(choices=InvoiceKind.choices)
    delinquent = django_filters.BooleanFilter(field_name="delinquent_on", lookup_expr="isnull", exclude=True)
    notice_from = django_filters.DateFilter(field_name="notice_date", lookup_expr="gte")
    notice_to = django_filters.DateFilter(field_name="notice_date", lookup_expr="lte")

    class Meta:
        model = Invoice
        fields = ["debtor", "establishment", "status", "kind", "delinquent", "notice_from", "notice_to"]


class PaymentFilter(django_filters.FilterSet):
    debtor = IdFilter(field_name="debtor_id", label=_("Account id"))
    method = django_filters.ChoiceFilter(choices=Payment.Method.choices)
    received_from = django_filters.DateFilter(field_name="received_on", lookup_expr="gte")
    received_to = django_filters.DateFilter(field_name="received_on", lookup_expr="lte")

    class Meta:
        model = Payment
        fields = ["debtor", "method", "received_from", "received_to"]


class LienFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=Lien.Status.choices)
    debtor = IdFilter(field_name="debtor_id", label=_("Account id"))

    class Meta:
        model = Lien
        fields = ["status", "debtor"]
