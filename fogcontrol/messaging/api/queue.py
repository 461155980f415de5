"""The "Reminders to send" queue in the API (issue #17): Town staff list the reminders due today and
not sent yet; the FOG Manager or the Billing Clerk sends many at once and reads each one's outcome.

`GET /api/v1/queues/reminders/?kind=&language=&q=` (paged), `POST /api/v1/queues/reminders/send/`
with `keys` (each reminder's `key`) or `all_matching` with the same filters; `dry_run` counts only.
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from fogcontrol.core.api.pagination import StandardPagination
from fogcontrol.core.api.views import StaffOnly
from fogcontrol.core.permissions import require_role
from fogcontrol.messaging import selectors, services
from fogcontrol.messaging.filters import REMINDER_KINDS, ReminderQueueFilter
from fogcontrol.messaging.roles import MESSAGE_MANAGERS
from fogcontrol.messaging.services.reminder_queue import BULK_LIMIT, OUTCOMES, SENDERS_ONLY
from fogcontrol.program.selectors import town_today


class PendingReminderSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="The reminder's once-only key: name it to send it.")
    kind = serializers.ChoiceField(choices=REMINDER_KINDS)
    about = serializers.CharField()
    due_on = serializers.DateField(allow_null=True)
    overdue = serializers.BooleanField()
    establishment = serializers.IntegerField(source="establishment_id", allow_null=True)
    business_name = serializers.CharField()
    to_email = serializers.EmailField()
    to_name = serializers.CharField()
    language = serializers.CharField()


class PendingReminderPageSerializer(serializers.Serializer):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = PendingReminderSerializer(many=True)


class ReminderSendSerializer(serializers.Serializer):
    keys = serializers.ListField(
        child=serializers.RegexField(r"^[0-9a-fA-F]{64}$", max_length=64),
        required=False,
        default=list,
        max_length=BULK_LIMIT,
        help_text="The reminders to send (their `key` in the list); or leave out and set all_matching.",
    )
    all_matching = serializers.BooleanField(
        default=False, help_text="Every reminder waiting that matches `kind`, `language` and `q`."
    )
    kind = serializers.ChoiceField(choices=REMINDER_KINDS, required=False, allow_blank=True, default="")
    language = serializers.CharField(required=False, allow_blank=True, default="")
    q = serializers.CharField(required=False, allow_blank=True, default="", max_length=100)
    dry_run = serializers.BooleanField(default=False, help_text="Only count what would be sent.")

    def validate(self, data):
        if not data["all_matching"] and not data["keys"]:
            raise serializers.ValidationError({"keys": "Name the reminders to send, or set all_matching."})
        return data


class ReminderOutcomeSerializer(serializers.Serializer):
    key = serializers.CharField()
    outcome = serializers.ChoiceField(choices=list(OUTCOMES))
    reason = serializers.CharField()
    message = serializers.IntegerField(source="message.pk", allow_null=True, default=None,
                                       help_text="The message written (sent now) or written before.")  # fmt: skip


class ReminderSendResultSerializer(serializers.Serializer):
    matched = serializers.IntegerField()
    sent = serializers.IntegerField()
    already_sent = serializers.IntegerField()
    not_due = serializers.IntegerField()
    items = ReminderOutcomeSerializer(many=True)


FILTERS = [
    OpenApiParameter("kind", OpenApiTypes.STR, enum=[k for k, _ in REMINDER_KINDS]),
    OpenApiParameter("language", OpenApiTypes.STR, description="en or es."),
    OpenApiParameter("q", OpenApiTypes.STR, description="Establishment, recipient or record."),
]


def _filtered(request, data) -> list:
    filterset = ReminderQueueFilter(data, request=request)
    if not filterset.is_valid():
        raise ValidationError(filterset.form.errors)
    return filterset.filter(selectors.reminders_to_send(request.user, on=town_today()))


class ReminderQueueView(StaffOnly, APIView):
    """The reminders due today and not sent yet, most urgent first, one per recipient (paged)."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[*FILTERS, OpenApiParameter("page", OpenApiTypes.INT),
                    OpenApiParameter("page_size", OpenApiTypes.INT)],
        responses={200: PendingReminderPageSerializer},
    )  # fmt: skip
    def get(self, request):
        paginator = StandardPagination()
        page = paginator.paginate_queryset(_filtered(request, request.query_params), request, view=self)
        return paginator.get_paginated_response(PendingReminderSerializer(page, many=True).data)


class ReminderSendView(StaffOnly, APIView):
    """Send many reminders at once. Each is written once (the nightly sweep will not send it again);
    one sent meanwhile is `already_sent`, one no longer due is `not_due`. ``dry_run`` counts only."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=ReminderSendSerializer, responses={200: ReminderSendResultSerializer})
    def post(self, request):
        require_role(request.user, MESSAGE_MANAGERS, SENDERS_ONLY)
        body = ReminderSendSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        if data["all_matching"]:
            params = {name: data[name] for name in ("kind", "language", "q") if data[name]}
            keys = [reminder.key for reminder in _filtered(request, params)]
        else:
            keys = data["keys"]
        if data["dry_run"]:
            answer = {"matched": len(keys), "sent": 0, "already_sent": 0, "not_due": 0, "items": []}
            return Response(ReminderSendResultSerializer(answer).data)
        result = services.reminders_send_selected(acting_user=request.user, keys=keys, on=town_today())
        answer = {
            "matched": len(result.items),
            "sent": len(result.sent),
            "already_sent": len(result.already_sent),
            "not_due": len(result.not_due),
            "items": result.items,
        }
        return Response(ReminderSendResultSerializer(answer).data)
