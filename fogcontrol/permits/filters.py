"""One FilterSet per list: the same filters serve the pages (`?status=submitted`) and the API."""

import django_filters
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.api.filters import IdFilter, RecordFilter
from fogcontrol.permits.models import (
    ApplicationKind,
    ApplicationStatus,
    FeeCharge,
    FeeKind,
    Permit,
    PermitApplication,
    PermitModification,
    PermitNotice,
    PermitStatus,
    RemodelNotice,
)
from fogcontrol.registry.models import FoodServiceEstablishment

# Applications waiting for the Town's next step (B5): filed and not yet decided, and not waiting for
# the applicant (a draft, or information requested).
WAITING_ON_TOWN = (
    ApplicationStatus.SUBMITTED,
    ApplicationStatus.UNDER_REVIEW,
    ApplicationStatus.ACCEPTED,
    ApplicationStatus.INSPECTION_SCHEDULED,
)


class ApplicationFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(method="search", label=_("Search"))
    status = django_filters.ChoiceFilter(choices=ApplicationStatus.choices)
    waiting = django_filters.BooleanFilter(method="filter_waiting", label=_("Waiting for the Town"))
    kind = django_filters.ChoiceFilter(choices=ApplicationKind.choices)
    establishment = IdFilter(field_name="establishment_id", label=_("Establishment id"))

    class Meta:
        model = PermitApplication
        fields = ["q", "status", "waiting", "kind", "establishment"]

    def filter_waiting(self, queryset, name, value):
        if value is None:
            return queryset
        if value:
            return queryset.filter(status__in=WAITING_ON_TOWN)
        return queryset.exclude(status__in=WAITING_ON_TOWN)

    def search(self, queryset, name, value):
        value = value.strip()
        if not value:
            return queryset
        return queryset.filter(
            Q(reference__icontains=value)
            | Q(establishment__business_name__icontains=value)
            | Q(establishment__licence_number__icontains=value)
        )


class PermitFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(method="search", label=_("Search"))
    status = django_filters.ChoiceFilter(choices=PermitStatus.choices)
    establishment = IdFilter(field_name="establishment_id", label=_("Establishment id"))
    device = IdFilter(field_name="device_id", label=_("Device id"))
    valid_until_before = django_filters.DateFilter(
        field_name="valid_until", lookup_expr="lte", label=_("Term ends by")
    )
    valid_until_after = django_filters.DateFilter(
        field_name="valid_until", lookup_expr="gte", label=_("Term ends after")
    )

    class Meta:
        model = Permit
        fields = ["q", "status", "establishment", "device", "valid_until_before", "valid_until_after"]

    def search(self, queryset, name, value):
        value = value.strip()
        if not value:
            return queryset
        return queryset.filter(
            Q(number__icontains=value)
            | Q(establishment__business_name__icontains=value)
            | Q(establishment__licence_number__icontains=value)
        )


class RemodelNoticeFilter(django_filters.FilterSet):
    plan_review = django_filters.ChoiceFilter(choices=RemodelNotice.PlanReview.choices)
    late = django_filters.BooleanFilter()
    establishment = IdFilter(field_name="establishment_id", label=_("Establishment id"))

    class Meta:
        model = RemodelNotice
        fields = ["plan_review", "late", "establishment"]


# The filters below name related records by id among those the user may see (RecordFilter): an id
# outside the user's scope is refused exactly like one that does not exist.


class FeeChargeFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=FeeCharge.Status.choices)
    kind = django_filters.ChoiceFilter(choices=FeeKind.choices)
    establishment = RecordFilter(model=FoodServiceEstablishment, what="establishment")
    application = RecordFilter(model=PermitApplication, what="application")

    class Meta:
        model = FeeCharge
        fields = ["status", "kind", "establishment", "application"]


class ModificationFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=PermitModification.Status.choices)
    permit = RecordFilter(model=Permit, what="permit")

    class Meta:
        model = PermitModification
        fields = ["status", "permit"]


class NoticeFilter(django_filters.FilterSet):
    kind = django_filters.ChoiceFilter(choices=PermitNotice.Kind.choices)
    permit = RecordFilter(model=Permit, what="permit")
    establishment = RecordFilter(model=FoodServiceEstablishment, what="establishment")

    class Meta:
        model = PermitNotice
        fields = ["kind", "permit", "establishment"]
