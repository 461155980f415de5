"""Messaging pages: the outbox (every e-mail sent, with its text and delivery), recording a bounce,
the invitations and inviting a user (FOG Manager), and the invitation link's page (anyone holding it)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from fogcontrol.core.errors import StateConflict
from fogcontrol.core.exports import Export
from fogcontrol.core.forms import show_service_errors
from fogcontrol.core.permissions import has_role, require_role
from fogcontrol.core.views import filtered_rows, found, live_filters, paginate, render_list, staff_only
from fogcontrol.messaging import selectors, services
from fogcontrol.messaging.exports import INVITATION_COLUMNS, MESSAGE_COLUMNS
from fogcontrol.messaging.filters import InvitationFilter, MessageFilter
from fogcontrol.messaging.forms import AcceptForm, BounceForm, InvitationForm
from fogcontrol.messaging.roles import INVITERS, MESSAGE_MANAGERS

PAGE_SIZE = 50


@login_required
def outbox(request):
    staff_only(request.user)
    filterset, rows = filtered_rows(MessageFilter, request, selectors.messages_visible_to(request.user))
    live_filters(filterset, request.path)
    context = {"filter": filterset, "page": paginate(request, rows, PAGE_SIZE)}
    export = Export("messages", MESSAGE_COLUMNS, rows)
    return render_list(request, "messaging/outbox.html", context, export=export)


def _message_page(request, message, *, form=None, status=200, problem=""):
    context = {
        "message": message,
        "form": form or BounceForm(),
        "can_bounce": has_role(request.user, MESSAGE_MANAGERS),
        "problem": problem,
    }
    return render(request, "messaging/message_detail.html", context, status=status)


@login_required
def message_detail(request, pk: int):
    return _message_page(request, found(selectors.message_detail, request.user, pk))


@login_required
@require_POST
def message_bounce(request, pk: int):
    message = found(selectors.message_detail, request.user, pk)
    require_role(request.user, MESSAGE_MANAGERS, "Only the FOG Manager and the Billing Clerk record bounces.")
    form = BounceForm(request.POST)
    if form.is_valid():
        try:
            services.message_bounce(
                acting_user=request.user, message=message, reason=form.cleaned_data["reason"]
            )
        except ValidationError as error:
            show_service_errors(form, error)
        except StateConflict as conflict:
            return _message_page(request, message, form=form, status=409, problem=str(conflict))
        else:
            messages.success(request, f"{message.reference} is recorded as bounced.")
            return redirect("messaging:message", pk=message.pk)
    return _message_page(request, message, form=form, status=400)


@login_required
def invitations(request):
    staff_only(request.user)
    filterset, rows = filtered_rows(InvitationFilter, request, selectors.invitations_visible_to(request.user))
    context = {
        "filter": filterset,
        "page": paginate(request, rows, PAGE_SIZE),
        "can_invite": has_role(request.user, INVITERS),
    }
    export = Export("invitations", INVITATION_COLUMNS, rows)
    return render_list(request, "messaging/invitations.html", context, export=export)


@login_required
def invitation_new(request):
    staff_only(request.user)
    require_role(request.user, INVITERS, "Only the FOG Manager invites users.")
    form = InvitationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        accept_url = request.build_absolute_uri(reverse("messaging:invitation_accept", args=["TOKEN"]))
        try:
            invitation, _token = services.invitation_send(
                acting_user=request.user,
                role=data["role"],
                email=data["email"],
                first_name=data["first_name"],
                last_name=data["last_name"],
                language=data["language"],
                establishment=data["establishment"],
                parcel=data["parcel"],
                hauler=data["hauler"],
                accept_url=accept_url.replace("TOKEN", "{token}"),
            )
        except ValidationError as error:
            show_service_errors(form, error)
        else:
            messages.success(request, f"{invitation.user.email} is invited: the e-mail is in the outbox.")
            return redirect("messaging:invitations")
    return render(
        request, "messaging/invitation_new.html", {"form": form}, status=400 if form.errors else 200
    )


@login_required
@require_POST
def invitation_revoke(request, pk: int):
    invitation = found(selectors.invitation_detail, request.user, pk)
    require_role(request.user, INVITERS, "Only the FOG Manager withdraws invitations.")
    try:
        services.invitation_revoke(acting_user=request.user, invitation=invitation)
    except StateConflict as conflict:
        messages.error(request, str(conflict))
        return redirect("messaging:invitations")
    messages.success(request, f"The invitation of {invitation.user.email} is withdrawn.")
    return redirect("messaging:invitations")


def invitation_accept(request, token: str):
    """The link in the invitation: set a password, once, before it expires. Open to anyone holding
    the link (the token is the proof); a signed-in user is told to sign out first."""
    if request.user.is_authenticated:
        return render(
            request,
            "messaging/invitation_accept.html",
            {"problem": "You are signed in. Sign out first, then open the invitation link again."},
            status=409,
        )
    try:
        invitation = services.invitation_for_token(token)
    except StateConflict as problem:
        return render(request, "messaging/invitation_accept.html", {"problem": str(problem)}, status=410)
    form = AcceptForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            services.invitation_accept(token=token, **form.cleaned_data)
        except ValidationError as error:
            show_service_errors(form, error)
        except StateConflict as problem:
            return render(request, "messaging/invitation_accept.html", {"problem": str(problem)}, status=410)
        else:
            messages.success(request, _("Your password is set. Sign in with your user name and password."))
            return redirect("login")
    context = {"form": form, "invitation": invitation}
    return render(request, "messaging/invitation_accept.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def message_retry(request, pk: int):
    message = found(selectors.message_detail, request.user, pk)
    require_role(
        request.user, MESSAGE_MANAGERS, "Only the FOG Manager and the Billing Clerk send a message again."
    )
    try:
        services.message_retry(acting_user=request.user, message=message)
    except StateConflict as conflict:
        return _message_page(request, message, status=409, problem=str(conflict))
    messages.success(request, f"{message.reference} is queued to be sent again.")
    return redirect("messaging:message", pk=message.pk)
