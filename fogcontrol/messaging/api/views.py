"""Messaging API (Town staff; anyone else: 404): the outbox and recording a bounce (a bounce webhook
posts here), the invitations, inviting a user and withdrawing an invitation.

`GET /api/v1/messages/?kind=&status=&language=&establishment=&q=`, `GET /api/v1/messages/{id}/`,
`POST /api/v1/messages/{id}/bounce/`; `GET|POST /api/v1/invitations/`, `POST /api/v1/invitations/{id}/revoke/`."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.response import Response
from rest_framework.viewsets import GenericViewSet

from fogcontrol.core.api.lookup import ScopedObjectLookup
from fogcontrol.core.api.views import StaffOnly, StepRoles
from fogcontrol.messaging import selectors, services
from fogcontrol.messaging.api.serializers import (
    BounceSerializer,
    InvitationCreateSerializer,
    InvitationSerializer,
    SentMessageSerializer,
)
from fogcontrol.messaging.filters import InvitationFilter, MessageFilter
from fogcontrol.messaging.roles import INVITERS, MESSAGE_MANAGERS

BOUNCERS_ONLY = "Only the FOG Manager and the Billing Clerk record bounces and send messages again."
INVITERS_ONLY = "Only the FOG Manager invites users."


class StaffViewSet(StepRoles, StaffOnly, ScopedObjectLookup, GenericViewSet):
    """Staff's records: anyone else is told the route does not exist (404) before any role check."""


class MessageViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, StaffViewSet):
    """Every e-mail the program sent, with its text and delivery."""

    serializer_class = SentMessageSerializer
    filterset_class = MessageFilter
    step_roles = {"bounce": (MESSAGE_MANAGERS, BOUNCERS_ONLY), "retry": (MESSAGE_MANAGERS, BOUNCERS_ONLY)}

    def get_queryset(self):
        return selectors.messages_visible_to(self.request.user)

    @extend_schema(
        summary="Record that the message bounced (for a bounce webhook, or staff)",
        request=BounceSerializer,
        responses={200: SentMessageSerializer, 400: OpenApiResponse(description="The field and the fix."),
                   409: OpenApiResponse(description="Not sent, or bounced already.")},
    )  # fmt: skip
    @action(detail=True, methods=["post"])
    def bounce(self, request, pk=None):
        message = self.get_object()
        serializer = BounceSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        message = services.message_bounce(
            acting_user=request.user, message=message, **serializer.validated_data
        )
        return Response(SentMessageSerializer(message).data)

    @extend_schema(
        summary="Send a failed message again",
        request=None,
        responses={200: SentMessageSerializer, 409: OpenApiResponse(description="Not failed.")},
    )
    @action(detail=True, methods=["post"])
    def retry(self, request, pk=None):
        message = services.message_retry(acting_user=request.user, message=self.get_object())
        return Response(SentMessageSerializer(message).data)


class InvitationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, StaffViewSet):
    """Invitations of FSE, property-owner and hauler users."""

    serializer_class = InvitationSerializer
    filterset_class = InvitationFilter
    step_roles = {"create": (INVITERS, INVITERS_ONLY), "revoke": (INVITERS, INVITERS_ONLY)}

    def get_queryset(self):
        return selectors.invitations_visible_to(self.request.user)

    @extend_schema(
        summary="Invite a user: open the account, bind it and e-mail the link",
        request=InvitationCreateSerializer,
        responses={201: InvitationSerializer},
    )
    def create(self, request):
        serializer = InvitationCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        url = request.build_absolute_uri(reverse("messaging:invitation_accept", args=["TOKEN"]))
        invitation, _token = services.invitation_send(
            acting_user=request.user, accept_url=url.replace("TOKEN", "{token}"), **serializer.validated_data
        )
        invitation = selectors.invitation_detail(request.user, invitation.pk)
        return Response(InvitationSerializer(invitation).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Withdraw an invitation not yet used", request=None, responses={200: InvitationSerializer}
    )
    @action(detail=True, methods=["post"])
    def revoke(self, request, pk=None):
        invitation = services.invitation_revoke(acting_user=request.user, invitation=self.get_object())
        return Response(InvitationSerializer(invitation).data)
