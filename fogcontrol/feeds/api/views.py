"""Feed tokens API: `GET /api/v1/feeds/` (your own), `POST /api/v1/feeds/` (make one: its address
is in that answer only), `POST /api/v1/feeds/{id}/revoke/`."""

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.response import Response

from fogcontrol.core.api.views import ScopedViewSet
from fogcontrol.feeds import selectors, services
from fogcontrol.feeds.api.serializers import (
    FeedTokenCreateSerializer,
    FeedTokenSerializer,
    NewFeedTokenSerializer,
)


class FeedTokenViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ScopedViewSet):
    """Your private calendar feeds (iCalendar): each user sees and revokes only their own."""

    serializer_class = FeedTokenSerializer

    def get_queryset(self):
        return selectors.tokens_for(self.request.user)

    @extend_schema(request=FeedTokenCreateSerializer, responses={201: NewFeedTokenSerializer})
    def create(self, request):
        form = FeedTokenCreateSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        token, raw = services.feed_token_create(
            user=request.user, acting_user=request.user, **form.validated_data
        )
        token.address = request.build_absolute_uri(reverse("feeds:calendar", args=[raw]))
        return Response(NewFeedTokenSerializer(token).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: FeedTokenSerializer})
    @action(detail=True, methods=["post"])
    def revoke(self, request, pk=None):
        token = services.feed_token_revoke(token=self.get_object(), acting_user=request.user)
        return Response(FeedTokenSerializer(token).data)
