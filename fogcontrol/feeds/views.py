"""The feeds pages: your calendar feeds (make one, see its address once, revoke one) and the feed
itself, read by calendar apps without a session (docs/feeds.md)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from fogcontrol.core.errors import StateConflict
from fogcontrol.core.forms import show_service_errors
from fogcontrol.core.views import found
from fogcontrol.feeds import calendars, selectors, services
from fogcontrol.feeds.forms import FeedForm
from fogcontrol.feeds.models import FeedToken
from fogcontrol.program.selectors import town_today


def _page(request, *, form=None, new_address: str = "", notice: str = "", status: int = 200):
    user = request.user
    kinds = services.kinds_for(user)
    context = {
        "tokens": selectors.tokens_for(user),
        "form": form or FeedForm(kinds=kinds),
        "new_address": new_address,
        "notice": notice,
    }
    template = "feeds/token_list.html#feeds" if request.htmx else "feeds/token_list.html"
    return render(request, template, context, status=status)


@login_required
@require_GET
def token_list(request):
    return _page(request)


@login_required
@require_POST
def token_create(request):
    form = FeedForm(request.POST, kinds=services.kinds_for(request.user))
    if form.is_valid():
        try:
            token, raw = services.feed_token_create(
                user=request.user, acting_user=request.user, **form.cleaned_data
            )
        except ValidationError as error:
            show_service_errors(form, error)
        else:
            address = request.build_absolute_uri(reverse("feeds:calendar", args=[raw]))
            notice = f"{token.get_kind_display()} feed made. Copy its address now: it is not shown again."
            return _page(request, new_address=address, notice=notice)
    return _page(request, form=form, status=400)


@login_required
@require_POST
def token_revoke(request, pk: int):
    token = found(selectors.token_detail, request.user, pk)
    try:
        services.feed_token_revoke(token=token, acting_user=request.user)
    except StateConflict as conflict:
        return _page(request, notice=str(conflict), status=409)
    return _page(request, notice="Feed revoked: its address no longer works.")


@require_GET
def calendar(request, token: str):
    """The feed itself: no session (calendar apps cannot sign in); the token is the key, and the
    feed shows only what its owner may see. An unknown or revoked token is a 404."""
    try:
        feed = selectors.live_token(token)
    except ObjectDoesNotExist as missing:
        raise Http404("No such feed.") from missing
    owner = feed.user
    if feed.kind not in services.kinds_for(owner):  # the owner's role changed since
        raise Http404("No such feed.")
    if feed.kind == FeedToken.Kind.SERVICE_DUE:
        body = calendars.service_due_calendar(
            selectors.service_due_devices(owner), request.build_absolute_uri
        )
    else:
        hearings = selectors.hearings_for(owner, today=town_today())
        body = calendars.hearings_calendar(hearings, request.build_absolute_uri)
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{feed.kind}.ics"'
    return response
