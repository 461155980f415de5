"""The account page (/account/): who you are in the program, what you are bound to, your API token."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_GET, require_POST

from fogcontrol.accounts.selectors import api_token_for, second_factor_status
from fogcontrol.accounts.services import api_token_revoke, api_token_rotate
from fogcontrol.core.languages import Language
from fogcontrol.registry import selectors

# How many of each bound record the page lists; the registry pages list the rest.
BOUND_RECORDS_SHOWN = 50


def _page(request, *, new_token: str | None = None, token_message: str = ""):
    user = request.user
    context = {
        "token": api_token_for(user=user),
        "new_token": new_token,
        "token_message": token_message,
        "is_staff_user": user.is_program_staff,
        "second_factor": second_factor_status(user=user),
        "languages": Language.choices,
    }
    if not user.is_program_staff:
        # Outside users see exactly the records they are bound to, as the selectors scope them.
        context.update(
            establishments=list(
                selectors.establishments_visible_to(user).select_related("parcel")[:BOUND_RECORDS_SHOWN]
            ),
            parcels=list(selectors.parcels_visible_to(user)[:BOUND_RECORDS_SHOWN]),
            haulers=list(selectors.haulers_visible_to(user)[:BOUND_RECORDS_SHOWN]),
        )
    template = "accounts/account.html#token" if request.htmx else "accounts/account.html"
    return render(request, template, context)


@login_required
@require_GET
def account(request):
    return _page(request)


@login_required
@require_POST
def token_rotate(request):
    """Issue a new API token (replacing any old one) and show it once."""
    token = api_token_rotate(user=request.user, acting_user=request.user)
    return _page(
        request,
        new_token=token.key,
        token_message="Your new API token is below. Copy it now: it is not shown again on this page. "
        "Any older token has stopped working.",
    )


@login_required
@require_POST
def token_revoke(request):
    revoked = api_token_revoke(user=request.user, acting_user=request.user)
    message = "Your API token was revoked." if revoked else "You had no API token."
    return _page(request, token_message=message)
