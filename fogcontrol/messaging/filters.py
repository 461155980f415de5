"""One FilterSet per list (the outbox, the invitations), for pages and API alike."""

import django_filters
from django import forms
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


REMINDER_KINDS = [
    (kind.value, kind.label) for kind in Kind if kind not in (Kind.PERMIT_NOTICE, Kind.INVITATION)
]


class ReminderQueueFilterForm(forms.Form):
    q = forms.CharField(required=False, max_length=100, label="Search")
    kind = forms.ChoiceField(required=False, choices=[("", "Any")] + REMINDER_KINDS)
    language = forms.ChoiceField(required=False, choices=[("", "Any")] + list(Language.choices))


class ReminderQueueFilter:
    """The filters of "Reminders to send": the reminders are worked out, not rows of a table, so this
    filters the list the way a FilterSet filters a queryset (`form`, `is_valid()`, `filter()`)."""

    def __init__(self, data, request=None):
        self.form = ReminderQueueFilterForm(
            {name: data.get(name) for name in ReminderQueueFilterForm.base_fields if data.get(name)}
        )
        self.request = request

    def is_valid(self) -> bool:
        return self.form.is_valid()

    @property
    def params(self) -> dict:
        return {k: v for k, v in self.form.cleaned_data.items() if v} if self.is_valid() else {}

    def filter(self, reminders) -> list:
        if not self.is_valid():
            return []
        data = self.form.cleaned_data
        text = (data.get("q") or "").strip().lower()
        found = []
        for reminder in reminders:
            if data.get("kind") and reminder.kind != data["kind"]:
                continue
            if data.get("language") and reminder.language != data["language"]:
                continue
            if text and not any(
                text in value.lower()
                for value in (reminder.business_name, reminder.to_email, reminder.to_name, reminder.about)
            ):
                continue
            found.append(reminder)
        return found
