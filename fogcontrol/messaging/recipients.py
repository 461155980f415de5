"""Who receives a message about an establishment: its FSE contacts, the property owner and the
haulers it engaged, each with the language they prefer. Loaded for a set of establishments at once
(a fixed number of queries), so a sweep over the whole town has no query per establishment."""

from __future__ import annotations

import dataclasses

from django.db.models import Prefetch

from fogcontrol.accounts.models import User
from fogcontrol.core.languages import DEFAULT_LANGUAGE
from fogcontrol.registry.models import FoodServiceEstablishment, HaulerCompany

FSE, OWNER, HAULER = "fse", "owner", "hauler"


@dataclasses.dataclass(frozen=True)
class Recipient:
    email: str
    name: str
    language: str = DEFAULT_LANGUAGE
    party_id: int | None = None
    user_id: int | None = None


def of_party(party) -> Recipient | None:
    if party is None or not party.email:
        return None
    return Recipient(
        email=party.email,
        name=party.contact_name or party.name,
        language=party.preferred_language,
        party_id=party.pk,
    )


def of_user(user) -> Recipient | None:
    if user is None or not user.email or not user.is_active:
        return None
    return Recipient(
        email=user.email,
        name=user.get_full_name() or user.username,
        language=user.preferred_language,
        user_id=user.pk,
    )


def _active_users():
    return User.objects.filter(is_active=True).order_by("pk")


def establishments_with_contacts(ids) -> dict[int, FoodServiceEstablishment]:
    """The establishments ``ids`` with everything ``recipients_of`` reads: a fixed number of queries."""
    users = _active_users()
    return {
        fse.pk: fse
        for fse in FoodServiceEstablishment.objects.filter(pk__in=set(ids))
        .select_related("contact", "operator", "parcel__owner")
        .prefetch_related(
            Prefetch("users", queryset=users),
            Prefetch("parcel__owner_users", queryset=users),
            Prefetch(
                "haulers",
                queryset=HaulerCompany.objects.order_by("pk").prefetch_related(
                    Prefetch("users", queryset=users)
                ),
            ),
        )
    }


def unique(recipients) -> list[Recipient]:
    """Each address once (the first occurrence wins), blanks dropped."""
    seen: set[str] = set()
    out = []
    for recipient in recipients:
        if recipient is None or recipient.email.lower() in seen:
            continue
        seen.add(recipient.email.lower())
        out.append(recipient)
    return out


def recipients_of(fse: FoodServiceEstablishment, who=(FSE,)) -> list[Recipient]:
    """The establishment's people to write to, in order: the FSE's contact, operator and users; the
    property owner (A2) and its users; the haulers it engaged and their users."""
    found = []
    if FSE in who:
        found += [of_party(fse.contact), of_party(fse.operator)]
        found += [of_user(user) for user in fse.users.all()]
    if OWNER in who and fse.parcel is not None:
        found.append(of_party(fse.parcel.owner))
        found += [of_user(user) for user in fse.parcel.owner_users.all()]
    if HAULER in who:
        for hauler in fse.haulers.all():
            if hauler.email:
                found.append(Recipient(email=hauler.email, name=hauler.name))
            found += [of_user(user) for user in hauler.users.all()]
    return unique(found)
