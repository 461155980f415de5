"""One FilterSet per list (the outbox, the invitations), for pages and API alike."""

import django_filters
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.api.filters import RecordFilter
from fogcontrol.core.languages import Language
from fogcontrol.messaging.models import Invitation, Kind, Message, Status
from fogcontrol.registry.models import FoodServiceEstablishment


class MessageFilter(django_filters.FilterSet):
    q = django_filters.CharFilter(method="search", label=_("Search"))
    kind = django_filters.ChoiceFilter(choices=Kind.choices)
    status = django_filters.ChoiceFilter(choices=Status.choices)
    language = django_filters.ChoiceFilter(choices=Language.choices)
    establishment = RecordFilter(model=FoodServiceEstablishment, what="establishment")

    class Meta:
        model = Message
        fields = ["q", "kind", "status", "language", "establishment"]

    def search(self, queryset, name, value):
        value = value.strip()
        if not value:
            return queryset
        return queryset.filter(
            Q(to_email__icontains=value) | Q(subject__icontains=value) | Q(to_name__icontains=value)
        )


class InvitationFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=Invitation.Status.choices)

    class Meta:
        model = Invitation
        fields = ["status"]
