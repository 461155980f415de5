"""The one search box of the staff header (issue #17): establishments, devices, permits, manifests
and parcels by name, address, licence, APN, number or identifier.

Each kind is searched by its own list's FilterSet (`q`, the search box of that list), over that
list's scoped selector (`visible_to`), so a hit is a record the user may open and "all N" is the
list with the same search. One query per kind, with a LIMIT: five queries, whatever the size of the
town and however many rows match.
"""

from __future__ import annotations

import dataclasses
from urllib.parse import urlencode

from django.urls import reverse

from fogcontrol.permits.filters import PermitFilter
from fogcontrol.permits.selectors import permits_visible_to
from fogcontrol.registry.filters import DeviceFilter, EstablishmentFilter, ParcelFilter
from fogcontrol.registry.selectors import (
    devices_visible_to,
    establishments_visible_to,
    parcels_visible_to,
)
from fogcontrol.servicing.filters import ManifestFilter
from fogcontrol.servicing.selectors import manifests_visible_to

MIN_LENGTH = 2
MAX_LENGTH = 100
LIVE_LIMIT = 5  # per kind, in the header's live results
PAGE_LIMIT = 25  # per kind, on the full results page


@dataclasses.dataclass(frozen=True)
class Hit:
    title: str
    detail: str
    url: str


@dataclasses.dataclass(frozen=True)
class Group:
    key: str
    title: str
    hits: list[Hit]
    more: bool  # more rows match than are shown
    list_url: str  # the kind's list, searched the same way


def _establishment(row) -> Hit:
    detail = " · ".join(part for part in (row.site_address, f"licence {row.licence_number}") if part)
    return Hit(row.business_name, detail, reverse("registry:establishment_detail", args=[row.pk]))


def _device(row) -> Hit:
    detail = " · ".join(part for part in (row.get_kind_display(), row.location_description) if part)
    return Hit(row.identifier, detail, reverse("registry:device_detail", args=[row.pk]))


def _permit(row) -> Hit:
    detail = f"{row.establishment.business_name} · {row.get_status_display()}"
    return Hit(row.number or f"Permit {row.pk}", detail, reverse("permits:permit_detail", args=[row.pk]))


def _manifest(row) -> Hit:
    detail = f"{row.device.identifier} · serviced {row.service_date:%b %d, %Y} · {row.hauler_name}"
    return Hit(row.manifest_number, detail, reverse("servicing:manifest_detail", args=[row.pk]))


def _parcel(row) -> Hit:
    return Hit(row.apn, row.situs_address, reverse("registry:parcel_detail", args=[row.pk]))


# key, title, FilterSet, base (user -> queryset), order, list URL name, hit
KINDS = (
    (
        "establishments",
        "Establishments",
        EstablishmentFilter,
        lambda user: establishments_visible_to(user),
        ("business_name", "pk"),
        "registry:establishment_list",
        _establishment,
    ),
    (
        "devices",
        "Devices",
        DeviceFilter,
        lambda user: devices_visible_to(user),
        ("identifier", "pk"),
        "registry:device_list",
        _device,
    ),
    (
        "permits",
        "Permits",
        PermitFilter,
        lambda user: permits_visible_to(user).select_related("establishment"),
        ("-valid_until", "pk"),
        "permits:permit_list",
        _permit,
    ),
    (
        "manifests",
        "Manifests",
        ManifestFilter,
        lambda user: manifests_visible_to(user).select_related("device"),
        ("-service_date", "-pk"),
        "servicing:manifest_list",
        _manifest,
    ),
    (
        "parcels",
        "Parcels",
        ParcelFilter,
        lambda user: parcels_visible_to(user),
        ("apn", "pk"),
        "registry:parcel_list",
        _parcel,
    ),
)


def clean_query(raw: str | None) -> tuple[str, str]:
    """The search text and, if it cannot be searched, why (empty when it can)."""
    text = " ".join((raw or "").split())
    if not text:
        return "", ""
    if len(text) < MIN_LENGTH:
        return text, f"Type at least {MIN_LENGTH} characters to search."
    if len(text) > MAX_LENGTH:
        return text[:MAX_LENGTH], f"Search for at most {MAX_LENGTH} characters; shorten the text."
    return text, ""


def search(user, text: str, *, limit: int = LIVE_LIMIT) -> list[Group]:
    """The records of each kind matching `text` that `user` may see: at most `limit` per kind."""
    groups = []
    for key, title, filterset_class, base, order, list_name, hit in KINDS:
        rows = filterset_class({"q": text}, queryset=base(user)).qs.order_by(*order)
        found = list(rows[: limit + 1])
        list_url = f"{reverse(list_name)}?{urlencode({'q': text})}"
        groups.append(Group(key, title, [hit(row) for row in found[:limit]], len(found) > limit, list_url))
    return groups
