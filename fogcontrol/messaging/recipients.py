"""Who receives a message about an establishment: its FSE contacts, the property owner and the
haulers it engaged, each with the language they prefer. Loaded for a set of establishments at once
(a fixed number of queries), so a sweep over the whole town has no query per establishment."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from types import SimpleNamespace

from fogcontrol.accounts.models import User
from fogcontrol.core.languages import DEFAULT_LANGUAGE
from fogcontrol.core.set_sql import json_values
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


_PARTY = ("id", "email", "contact_name", "name", "preferred_language")
_USER = ("id", "email", "first_name", "last_name", "username", "preferred_language")


def _party_row(row: dict, prefix: str) -> Recipient | None:
    """``of_party`` of the party whose fields a values() row holds under ``prefix`` (None: no party)."""
    if row[prefix + "id"] is None:
        return None
    return of_party(SimpleNamespace(pk=row[prefix + "id"], **{f: row[prefix + f] for f in _PARTY[1:]}))


def _user_row(row: dict) -> Recipient | None:
    """``of_user`` of an active user's values() row (an unsaved ``User`` of those fields: the name
    is ``get_full_name`` or the username, as for any user)."""
    return of_user(User(is_active=True, **{field: row[field] for field in _USER}))


def _active_users():
    return User.objects.filter(is_active=True).order_by("pk")


@dataclasses.dataclass
class Contacts:
    """An establishment's name and address and its people by group, in ``recipients_of``'s order
    (before ``unique``): loaded for many establishments at once by ``contacts_of``."""

    values: dict  # business_name, site_address
    groups: dict  # FSE / OWNER / HAULER: [Recipient | None]
    chosen: dict = dataclasses.field(default_factory=dict)

    def recipients(self, who=(FSE,)) -> list[Recipient]:
        """``recipients_of(fse, who)``, worked out once per ``who``."""
        if who not in self.chosen:
            self.chosen[who] = unique(
                r for group in (FSE, OWNER, HAULER) if group in who for r in self.groups[group]
            )
        return self.chosen[who]


def _in(ids):
    """An ``__in`` of ids as one JSON parameter (``json_values``: Django prepares each value of a
    list, a thousand a page); none is an empty list, which Django answers without a query."""
    return json_values(ids, integers=True) if ids else []


def contacts_of(ids) -> dict[int, Contacts]:
    """The establishments ``ids`` with the people ``recipients_of`` would name, from value rows:
    five queries, whatever the number, and no model instance or related manager per establishment
    (a sweep's pages hold a thousand; their prefetch cost more than the rest of a reminder)."""
    parties = [f"{who}__{field}" for who in ("contact", "operator", "parcel__owner") for field in _PARTY]
    rows = list(
        FoodServiceEstablishment.objects.filter(pk__in=_in(set(ids)))
        .order_by()
        .values("id", "business_name", "site_address", "parcel_id", *parties)
    )
    fse_ids = _in({row["id"] for row in rows})
    users = _active_users()
    fse_users, owner_users, hauler_users = defaultdict(list), defaultdict(list), defaultdict(list)
    for row in users.filter(establishments__in=fse_ids).values("establishments", *_USER):
        fse_users[row["establishments"]].append(_user_row(row))
    parcel_ids = {row["parcel_id"] for row in rows if row["parcel_id"] is not None}
    for row in users.filter(owned_parcels__in=_in(parcel_ids)).values("owned_parcels", *_USER):
        owner_users[row["owned_parcels"]].append(_user_row(row))
    haulers = defaultdict(list)
    hauler_rows = list(
        HaulerCompany.objects.filter(customers__in=fse_ids)
        .order_by("pk")
        .values("customers", "id", "email", "name")
    )
    for row in users.filter(hauler_companies__in=_in({row["id"] for row in hauler_rows})).values(
        "hauler_companies", *_USER
    ):
        hauler_users[row["hauler_companies"]].append(_user_row(row))
    for row in hauler_rows:
        if row["email"]:
            haulers[row["customers"]].append(Recipient(email=row["email"], name=row["name"]))
        haulers[row["customers"]] += hauler_users[row["id"]]
    out = {}
    for row in rows:
        owner = []
        if row["parcel_id"] is not None:
            owner = [_party_row(row, "parcel__owner__"), *owner_users[row["parcel_id"]]]
        out[row["id"]] = Contacts(
            values={"business_name": row["business_name"], "site_address": row["site_address"]},
            groups={
                FSE: [_party_row(row, "contact__"), _party_row(row, "operator__"), *fse_users[row["id"]]],
                OWNER: owner,
                HAULER: haulers[row["id"]],
            },
        )
    return out


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
