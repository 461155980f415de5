"""One FilterSet per list of the FSE's records, pages and API alike."""

import django_filters

from fogcontrol.core.api.filters import RecordFilter
from fogcontrol.records.models import OilPickup, RecordRequirement, RecordSubmission, TrainingSession
from fogcontrol.registry.models import FoodServiceEstablishment


class TrainingSessionFilter(django_filters.FilterSet):
    establishment = RecordFilter(model=FoodServiceEstablishment, what="establishment")
    held_from = django_filters.DateFilter(field_name="held_on", lookup_expr="gte")
    held_to = django_filters.DateFilter(field_name="held_on", lookup_expr="lte")

    class Meta:
        model = TrainingSession
        fields = ["establishment", "held_from", "held_to"]


class OilPickupFilter(django_filters.FilterSet):
    establishment = RecordFilter(model=FoodServiceEstablishment, what="establishment")
    picked_from = django_filters.DateFilter(field_name="picked_up_on", lookup_expr="gte")
    picked_to = django_filters.DateFilter(field_name="picked_up_on", lookup_expr="lte")

    class Meta:
        model = OilPickup
        fields = ["establishment", "picked_from", "picked_to"]


class RequirementFilter(django_filters.FilterSet):
    establishment = RecordFilter(model=FoodServiceEstablishment, what="establishment")
    kind = django_filters.ChoiceFilter(choices=RecordRequirement.Kind.choices)

    class Meta:
        model = RecordRequirement
        fields = ["establishment", "kind"]


class SubmissionFilter(django_filters.FilterSet):
    establishment = RecordFilter(
        model=FoodServiceEstablishment, what="establishment", field_name="requirement__establishment"
    )
    requirement = RecordFilter(model=RecordRequirement, what="requirement")
    reviewed = django_filters.BooleanFilter(field_name="review", lookup_expr="isnull", exclude=True)

    class Meta:
        model = RecordSubmission
        fields = ["establishment", "requirement", "reviewed"]
