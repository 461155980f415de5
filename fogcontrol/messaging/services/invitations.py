"""Invitations (issue #17): the FOG Manager opens an account for an FSE, property-owner or hauler
user, bound to its establishment, parcel or hauler company, and e-mails a single-use link that
expires (``FOGCONTROL_INVITATION_DAYS``, default 7) to set the password.

The link's token is random (``secrets``); only its sha256 is kept, so the database never holds a
usable link. Accepting sets the password (the project's password rules) and uses the invitation up:
a second use, or one after expiry or withdrawal, is refused with a sentence saying which.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets

from django.conf import settings
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from fogcontrol.accounts.models import User
from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.languages import Language
from fogcontrol.core.permissions import require_role
from fogcontrol.core.roles import Role
from fogcontrol.messaging.models import Invitation, Kind
from fogcontrol.messaging.recipients import of_user
from fogcontrol.messaging.roles import INVITERS
from fogcontrol.messaging.services.messages import Draft, format_value, messages_queue
from fogcontrol.program.selectors import town_today

BINDING = {Role.FSE: "establishment", Role.PROPERTY_OWNER: "parcel", Role.HAULER: "hauler"}


class InvitationUnusable(StateConflict):
    """The link was used, expired or withdrawn."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _days() -> int:
    return int(getattr(settings, "FOGCONTROL_INVITATION_DAYS", 7))


@transaction.atomic
def invitation_send(
    *,
    acting_user,
    role: str,
    email: str,
    first_name: str = "",
    last_name: str = "",
    language: str = Language.ENGLISH,
    establishment=None,
    parcel=None,
    hauler=None,
    accept_url: str,
) -> tuple[Invitation, str]:
    """Open the account, bind it, and e-mail the link. ``accept_url`` has ``{token}`` where the token
    goes (the page builds it from the request). Returns the invitation and its token."""
    require_role(acting_user, INVITERS, "Only the FOG Manager invites users.")
    email = (email or "").strip()
    bound = {"establishment": establishment, "parcel": parcel, "hauler": hauler}
    errors = {}
    if role not in BINDING:
        errors["role"] = (
            "Invite an FSE, property-owner or hauler user (staff accounts are made by the administrator)."
        )
    else:
        field = BINDING[role]
        if bound[field] is None:
            errors[field] = f"Choose the {field} the {Role(role).label.lower()} account is for."
        for other, value in bound.items():
            if other != field and value is not None:
                errors[other] = f"A {Role(role).label.lower()} account is bound to a {field}, not a {other}."
    if not email:
        errors["email"] = "Give the e-mail address the invitation goes to."
    elif (
        User.objects.filter(username__iexact=email).exists()
        or User.objects.filter(email__iexact=email).exists()
    ):
        errors["email"] = (
            f"An account with {email} exists already: bind that account instead, or use another address."
        )
    if language not in Language.values:
        errors["language"] = "Choose English or Spanish."
    if errors:
        raise ValidationError(errors)
    user = User(
        username=email.lower()[:150],
        email=email,
        first_name=first_name.strip()[:150],
        last_name=last_name.strip()[:150],
        role=role,
        preferred_language=language,
    )
    user.set_unusable_password()
    user.full_clean(exclude=["password"])
    user.save()
    record = bound[BINDING[role]]
    if role == Role.FSE:
        record.users.add(user)
    elif role == Role.PROPERTY_OWNER:
        record.owner_users.add(user)
    else:
        record.users.add(user)
    token = secrets.token_urlsafe(32)
    invitation = Invitation.objects.create(
        user=user,
        role=role,
        token_hash=token_hash(token),
        expires_at=timezone.now() + dt.timedelta(days=_days()),
        invited_by=person(acting_user),
        invited_by_label=actor_label_for(acting_user)[:150],
        **{BINDING[role]: record},
    )
    audit_record(
        acting_user=acting_user,
        action="invitation.send",
        instance=invitation,
        after=snapshot(invitation),
        note=f"Account {user.username} ({Role(role).label}) bound to {record}.",
    )
    expires = timezone.localtime(invitation.expires_at).date()
    messages_queue(
        acting_user=acting_user,
        drafts=[
            Draft(
                Kind.INVITATION,
                of_user(user),
                invitation,
                expires,
                {
                    "business_name": str(record),
                    "link": accept_url.replace("{token}", token),
                    "expires": expires,
                    "username": user.username,
                },
                establishment.pk if establishment is not None else None,
            )
        ],
        on=town_today(),
    )
    return invitation, token


def invitation_for_token(token: str) -> Invitation:
    """The invitation of a link, or InvitationUnusable saying why it cannot be used."""
    invitation = Invitation.objects.select_related("user").filter(token_hash=token_hash(token or "")).first()
    if invitation is None:
        raise InvitationUnusable(
            "This invitation link is not valid. Check that the whole link was copied, or ask the FOG Manager "
            "for a new invitation."
        )
    if invitation.status == Invitation.Status.ACCEPTED:
        raise InvitationUnusable(
            "This invitation has been used already: the password is set. Sign in, or use "
            "'Forgot your password?' on the sign-in page."
        )
    if invitation.status == Invitation.Status.REVOKED:
        raise InvitationUnusable("This invitation was withdrawn by the FOG Manager. Ask for a new one.")
    if invitation.expires_at <= timezone.now():
        when = timezone.localtime(invitation.expires_at)
        raise InvitationUnusable(
            f"This invitation expired on {format_value(when.date(), Language.ENGLISH)} at {when:%H:%M}. "
            "Ask the FOG Manager to invite you again."
        )
    return invitation


@transaction.atomic
def invitation_accept(*, token: str, password1: str, password2: str) -> User:
    """Set the invited user's password and use the invitation up (once; not after expiry)."""
    found = invitation_for_token(token)
    invitation = Invitation.objects.select_for_update().select_related("user").get(pk=found.pk)
    if invitation.status != Invitation.Status.PENDING:
        raise InvitationUnusable("This invitation has been used already. Sign in with your password.")
    if password1 != password2:
        raise ValidationError({"password2": "The two passwords differ: type the same password twice."})
    user = invitation.user
    try:
        validate_password(password1, user)
    except ValidationError as error:
        raise ValidationError({"password1": error.messages}) from error
    user.set_password(password1)
    user.save(update_fields=["password"])
    before = snapshot(invitation)
    invitation.status, invitation.accepted_at = Invitation.Status.ACCEPTED, timezone.now()
    invitation.save(update_fields=["status", "accepted_at"])
    audit_record(
        acting_user=user,
        action="invitation.accept",
        instance=invitation,
        before=before,
        after=snapshot(invitation),
        note="Password set through the invitation link.",
    )
    return user


@transaction.atomic
def invitation_revoke(*, acting_user, invitation: Invitation) -> Invitation:
    """Withdraw an invitation not yet used: its link stops working (the account stays, unusable)."""
    require_role(acting_user, INVITERS, "Only the FOG Manager withdraws invitations.")
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.status != Invitation.Status.PENDING:
        raise StateConflict(
            f"This invitation is {invitation.get_status_display().lower()}: it cannot be withdrawn."
        )
    before = snapshot(invitation)
    invitation.status = Invitation.Status.REVOKED
    invitation.save(update_fields=["status"])
    audit_record(
        acting_user=acting_user,
        action="invitation.revoke",
        instance=invitation,
        before=before,
        after=snapshot(invitation),
    )
    return invitation
