"""Reads of the registry, always scoped to what the user may see.

Who sees which record is each model's `visible_to(user, action)` (fogcontrol.registry.querysets);
the `*_visible_to` selectors below only name it for the other apps. Anything outside the scope is
not found (404), never forbidden, so that a record's existence does not leak.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import Count, IntegerField, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from fogcontrol.core.scoping import VIEW
from fogcontrol.registry.models import (
    FoodServiceEstablishment,
    GreaseControlDevice,
    HaulerCompany,
    HaulerVehicle,
    Parcel,
    Party,
    ReceivingFacility,
)
from fogcontrol.rules.responsibility import FSE, Responsibility, device_responsibility


def establishments_visible_to(user, action: str = VIEW) -> QuerySet[FoodServiceEstablishment]:
    return FoodServiceEstablishment.objects.visible_to(user, action)


def device_count():
    """How many devices serve the row's FSE, as a correlated subquery (issue 16).

    Not ``Count("devices")``: that joins and groups every row of the town before the page is cut,
    and makes the pager's COUNT(*) a count over the grouped join. A subquery in the SELECT list is
    evaluated only for the rows the page returns, and ``.count()`` drops it (Django strips unused
    annotations), so the pager counts the establishment table alone."""
    links = (
        GreaseControlDevice.establishments.through.objects.filter(foodserviceestablishment_id=OuterRef("pk"))
        .order_by()
        .values("foodserviceestablishment_id")
        .annotate(n=Count("*"))
        .values("n")
    )
    return Coalesce(Subquery(links, output_field=IntegerField()), 0)


def establishment_list(user, *, search: str = "") -> QuerySet[FoodServiceEstablishment]:
    """The FSE list: a fixed number of queries whatever its length, and a time that does not grow
    with the town (the device count per row, the pager's count on the table alone, the order by
    the index ``fse_list_order``)."""
    queryset = establishments_visible_to(user).select_related("parcel", "operator")
    queryset = queryset.annotate(device_count=device_count())
    if search:
        queryset = queryset.filter(establishments_matching(search))
    return queryset


# What a row of the FSE list page reads (registry/establishment_list.html and its status badge): not
# the FSE's other 16 columns, the parcel's other 8 or the operator, which the page never shows.
_LIST_PAGE_COLUMNS = ("business_name", "licence_number", "site_address", "parcel__apn", "category", "status")


def establishment_list_page(rows: QuerySet[FoodServiceEstablishment]) -> QuerySet[FoodServiceEstablishment]:
    """The rows of a page of the FSE list: only the columns a row shows (issue 16: building the
    records whole was a tenth of the page). The export still writes from ``rows`` as they are."""
    return rows.select_related(None).select_related("parcel").only(*_LIST_PAGE_COLUMNS)


def establishments_matching(search: str) -> Q:
    """The FSEs whose name, licence, site or parcel number contains ``search`` (issue 16).

    The parcels' numbers are matched in a subquery, not an OR across a join to the parcels. On
    PostgreSQL the FSE's own columns and the parcels are a UNION, each side read through its
    trigram indexes (``search_indexes``; an OR with a subquery in it reads every row). SQLite has
    no index for ``LIKE '%…%'``: there the OR lets the page read the list's index in order and
    stop once it has its rows."""
    own = (
        Q(business_name__icontains=search)
        | Q(licence_number__icontains=search)
        | Q(site_address__icontains=search)
    )
    on_parcels = Q(parcel_id__in=Parcel.objects.filter(apn__icontains=search).values("pk"))
    if connection.vendor != "postgresql":
        return own | on_parcels
    fses = FoodServiceEstablishment.objects.order_by()
    return Q(pk__in=fses.filter(own).values("pk").union(fses.filter(on_parcels).values("pk")))


def establishment_detail(user, pk) -> FoodServiceEstablishment:
    """One FSE with what its page shows; raises DoesNotExist outside the user's scope."""
    return (
        establishments_visible_to(user)
        .select_related("parcel", "parcel__owner", "parcel__owner_designee", "operator", "contact")
        .prefetch_related(
            Prefetch(
                "devices", queryset=GreaseControlDevice.objects.prefetch_related("establishments__parcel")
            ),
            "haulers",
            "users",
        )
        .get(pk=pk)
    )


def establishment_page(user, pk) -> FoodServiceEstablishment:
    """``establishment_detail`` for the FSE's own page (issue 16): its devices, whose FSEs the page
    reads with ``establishments_served``, and not the linked users, which only the edit form shows."""
    return (
        establishments_visible_to(user)
        .select_related("parcel", "parcel__owner", "parcel__owner_designee", "operator", "contact")
        .prefetch_related("devices", "haulers")
        .get(pk=pk)
    )


@dataclass(frozen=True, slots=True)
class PartyRow:
    """A parcel's owner or designee as a device's row names it (A2's notice recipient)."""

    pk: int
    name: str


@dataclass(frozen=True, slots=True)
class ParcelRow:
    """The parcel of an FSE a device serves: its APN (A2) and who receives its notices."""

    pk: int
    apn: str
    owner: PartyRow | None
    owner_designee: PartyRow | None


@dataclass(frozen=True, slots=True)
class ServedRow:
    """An FSE a device serves as the devices API's list reads it (`with_served_rows`): what
    `ServedEstablishmentSerializer`, `responsibility_for` and `notice_recipient_for` read of the FSE,
    under the model's names."""

    pk: int
    business_name: str
    status: str
    parcel_id: int | None
    parcel: ParcelRow | None

    @property
    def id(self) -> int:
        return self.pk


def establishments_served(devices) -> dict[int, list[tuple[str, str | None]]]:
    """The FSEs each device serves, as (name, parcel number or None), in the FSEs' own order: one
    query of the links reading those columns, none without devices. What a device table shows and
    A2 reads (issue 16: built as the FSEs and their parcels' model instances, it was 40 % of the
    FSE page's selector, to write a name and read a parcel number)."""
    served: dict[int, list[tuple[str, str | None]]] = {device.pk: [] for device in devices}
    if not served:
        return served
    links = (
        GreaseControlDevice.establishments.through.objects.filter(greasecontroldevice_id__in=list(served))
        .order_by("foodserviceestablishment__business_name", "foodserviceestablishment_id")
        .values_list(
            "greasecontroldevice_id",
            "foodserviceestablishment__business_name",
            "foodserviceestablishment__parcel__apn",
        )
    )
    for device_id, name, apn in links:
        served[device_id].append((name, apn))
    return served


def with_served_rows(devices: list[GreaseControlDevice]) -> list[GreaseControlDevice]:
    """Each device of a page of the API's list with the FSEs it serves as `ServedRow`s in
    ``api_establishments``, in the FSEs' own order, from one query of the links' columns; where
    `ServedEstablishmentSerializer`, `responsibility_for` and `notice_recipient_for` read them (issue
    16: prefetched, each link built the FSE, its parcel and the parcel's owner and designee as model
    instances, about 450 a page of 50 devices). `establishments_served` reads fewer columns of the
    same links for the pages' device tables."""
    served: dict[int, list[ServedRow]] = {device.pk: [] for device in devices}
    if not served:
        return devices
    links = (
        GreaseControlDevice.establishments.through.objects.filter(greasecontroldevice_id__in=list(served))
        .order_by(*(f"foodserviceestablishment__{name}" for name in FoodServiceEstablishment._meta.ordering))
        .values_list(
            "greasecontroldevice_id",
            "foodserviceestablishment_id",
            "foodserviceestablishment__business_name",
            "foodserviceestablishment__status",
            "foodserviceestablishment__parcel_id",
            "foodserviceestablishment__parcel__apn",
            "foodserviceestablishment__parcel__owner_id",
            "foodserviceestablishment__parcel__owner__name",
            "foodserviceestablishment__parcel__owner_designee_id",
            "foodserviceestablishment__parcel__owner_designee__name",
        )
    )
    parcels: dict[int, ParcelRow] = {}
    for device_id, pk, name, status, parcel_id, apn, owner_id, owner, designee_id, designee in links:
        parcel = None
        if parcel_id is not None:
            parcel = parcels.get(parcel_id)
            if parcel is None:
                parcel = parcels[parcel_id] = ParcelRow(
                    parcel_id,
                    apn,
                    None if owner_id is None else PartyRow(owner_id, owner),
                    None if designee_id is None else PartyRow(designee_id, designee),
                )
        served[device_id].append(ServedRow(pk, name, status, parcel_id, parcel))
    for device in devices:
        device.api_establishments = served[device.pk]
    return devices


def devices_visible_to(user, action: str = VIEW) -> QuerySet[GreaseControlDevice]:
    return GreaseControlDevice.objects.visible_to(user, action)


def device_list(user) -> QuerySet[GreaseControlDevice]:
    return (
        devices_visible_to(user)
        .select_related("parcel")
        .prefetch_related(
            Prefetch(
                "establishments",
                queryset=FoodServiceEstablishment.objects.only("pk", "business_name", "parcel_id"),
            )
        )
    )


def device_detail(user, pk) -> GreaseControlDevice:
    return (
        devices_visible_to(user)
        .select_related("parcel", "parcel__owner", "parcel__owner_designee")
        .prefetch_related(
            Prefetch(
                "establishments",
                queryset=FoodServiceEstablishment.objects.select_related("parcel", "operator"),
            )
        )
        .get(pk=pk)
    )


def parcels_visible_to(user, action: str = VIEW) -> QuerySet[Parcel]:
    return Parcel.objects.visible_to(user, action)


def parcel_detail(user, pk, *, establishment_ids: bool = True) -> Parcel:
    """A parcel with every FSE and device on it that the user may see; with the FSEs each device
    serves prefetched (``establishment_ids``: the API lists their ids), or not (the page reads their
    names with ``establishments_served``)."""
    parcel = parcels_visible_to(user).select_related("owner", "owner_designee").get(pk=pk)
    parcel.visible_establishments = list(
        establishments_visible_to(user).filter(parcel=parcel).select_related("operator")
    )
    devices = devices_visible_to(user).filter(Q(parcel=parcel) | Q(establishments__parcel=parcel)).distinct()
    if establishment_ids:
        # As a list, which `ParcelDeviceSerializer` reads (`prefetched_lists`).
        devices = devices.prefetch_related(Prefetch("establishments", to_attr="api_establishments"))
    parcel.visible_devices = list(devices)
    return parcel


def haulers_visible_to(user, action: str = VIEW) -> QuerySet[HaulerCompany]:
    return HaulerCompany.objects.visible_to(user, action)


def parties_visible_to(user, action: str = VIEW) -> QuerySet[Party]:
    return Party.objects.visible_to(user, action)


def facilities_visible_to(user, action: str = VIEW) -> QuerySet[ReceivingFacility]:
    return ReceivingFacility.objects.visible_to(user, action)


def responsibility_for(device: GreaseControlDevice) -> Responsibility:
    """A2 for a device whose establishments (and their parcels) are prefetched, or read as rows."""
    parcels = [fse.parcel.apn if fse.parcel_id else None for fse in _served(device)]
    return device_responsibility(establishment_parcels=parcels)


def responsibility_of_served(served: list[tuple[str, str | None]]) -> Responsibility:
    """A2 for a device from its ``establishments_served`` row."""
    return device_responsibility(establishment_parcels=[apn for _, apn in served])


def _served(device: GreaseControlDevice):
    """The FSEs a device serves: the rows the API's device list read (`with_served_rows`), else its
    prefetched relation."""
    served = getattr(device, "api_establishments", None)
    return device.establishments.all() if served is None else served


def registry_counts(user) -> dict[str, int]:
    """The program's size, for the staff home page."""
    establishments = establishments_visible_to(user)
    devices = devices_visible_to(user)
    return {
        "establishments_active": establishments.filter(status=FoodServiceEstablishment.Status.ACTIVE).count(),
        "establishments_closed": establishments.filter(status=FoodServiceEstablishment.Status.CLOSED).count(),
        "devices": devices.filter(status=GreaseControlDevice.Status.ACTIVE).count(),
        "devices_flagged": devices.filter(status=GreaseControlDevice.Status.ACTIVE)
        .exclude(a4_flags=[])
        .count(),
        "shared_devices": devices.shared().count(),
        "parcels": parcels_visible_to(user).count(),
        "haulers": haulers_visible_to(user).filter(active=True).count(),
    }


# --- Reads for the registry API (fogcontrol.registry.api): the page selectors above plus what the
# API shows, so that its lists run a fixed number of queries whatever their length.


# What a row of the establishments API shows (`EstablishmentSerializer`): every column of the FSE,
# but of its parcel, operator and contact only the APN and the names. A field added to the rows that
# reads a column left out here would load it one query a row: the API's query tests would fail.
_API_FSE_COLUMNS = (
    "version", "business_name", "licence_number", "licence_expires_on", "site_address", "parcel__apn",
    "operator__name", "contact__name", "category", "food_types", "meals_per_day", "dining_capacity",
    "employees", "kitchen_size_sqft", "food_preparation_hours", "cleaning_hours", "status", "closed_on",
    "latitude", "longitude", "created_at", "updated_at",
)  # fmt: skip


def establishment_list_for_api(user, *, as_lists: bool = False) -> QuerySet[FoodServiceEstablishment]:
    """`establishment_list` with the contact, linked users and engaged haulers the API returns.

    ``as_lists`` (the API's list): the last two as plain lists, ``api_users`` and ``api_haulers``, so
    that Django builds no related manager and queryset a row, and of the parcel, operator and contact
    only the columns the rows show. A record a write starts from keeps Django's prefetch cache, which
    the audit's snapshot of its many-to-many ids reads, and its related records whole."""
    from django.contrib.auth import get_user_model

    queryset = establishment_list(user).select_related("contact")
    if as_lists:
        # The list reads of the parcel, operator and contact only what its rows show (issue 16).
        queryset = queryset.only(*_API_FSE_COLUMNS)
    return queryset.prefetch_related(
        Prefetch(
            "users",
            queryset=get_user_model().objects.only("pk"),
            to_attr="api_users" if as_lists else None,
        ),
        Prefetch(
            "haulers",
            queryset=HaulerCompany.objects.only("pk", "name"),
            to_attr="api_haulers" if as_lists else None,
        ),
    )


# What a device's detail reads of the FSEs it serves (`ServedEstablishmentSerializer`, A2's parcels
# and the notice recipient); the list reads the same as rows (`with_served_rows`).
_SERVED_COLUMNS = (
    "business_name",
    "status",
    "parcel_id",
    "parcel__apn",
    "parcel__owner__name",
    "parcel__owner_designee__name",
)


# What a row of the devices API shows (`DeviceSerializer`): every column of the device, but of its
# parcel only the APN and, for the notice recipient (A2), its owner's and designee's names.
_API_DEVICE_COLUMNS = (
    "version", "identifier", "kind", "capacity_gallons", "rated_flow_gpm", "total_design_depth_in",
    "compartments", "manhole_diameter_in", "location_description", "access_notes", "installed_on",
    "building_permit_number", "parcel__apn", "parcel__owner__name", "parcel__owner_designee__name",
    "assigned_frequency_days", "status", "a4_flags", "created_at", "updated_at",
)  # fmt: skip


def device_list_for_api(user, *, as_lists: bool = False) -> QuerySet[GreaseControlDevice]:
    """Devices with what `responsibility_for` (A2) and the notice recipient need, prefetched.

    ``as_lists`` (the API's list): of the device's parcel and its parties only the columns the rows
    show, and the FSEs served not prefetched: the list's page reads them as rows with
    `with_served_rows`. A record a write starts from keeps the prefetch cache (the audit's snapshot
    of its many-to-many ids reads it) and its related records whole."""
    queryset = devices_visible_to(user).select_related("parcel", "parcel__owner", "parcel__owner_designee")
    if as_lists:
        # The list reads of the parcel and its parties only what its rows show (issue 16).
        return queryset.only(*_API_DEVICE_COLUMNS)
    return queryset.prefetch_related(
        Prefetch(
            "establishments",
            queryset=FoodServiceEstablishment.objects.select_related(
                "parcel__owner", "parcel__owner_designee"
            ).only(*_SERVED_COLUMNS),
        )
    )


def notice_recipient_for(device: GreaseControlDevice, responsibility: Responsibility):
    """Who receives installation and maintenance notices for the device (A2).

    The FSE it serves when it serves one; otherwise the owner's official designee when named,
    else the owner of record of the device's parcel. None when the records do not say.
    """
    if responsibility.responsible == FSE:
        establishments = list(_served(device))
        return establishments[0] if establishments else None
    parcel = device.parcel
    if parcel is None:
        parcels = {fse.parcel for fse in _served(device) if fse.parcel_id}
        parcel = parcels.pop() if len(parcels) == 1 else None
    if parcel is None:
        return None
    return parcel.owner_designee or parcel.owner


def parcel_list_for_api(user) -> QuerySet[Parcel]:
    return parcels_visible_to(user).select_related("owner", "owner_designee")


def hauler_list_for_api(user) -> QuerySet[HaulerCompany]:
    """Haulers with their vehicles (the API nests them)."""
    return haulers_visible_to(user).prefetch_related("vehicles")


# --- Reads for the registry pages (fogcontrol.registry.views).


def parcel_list(user) -> QuerySet[Parcel]:
    """Parcels with their owner and how many FSEs are on each, in a fixed number of queries."""
    return parcels_visible_to(user).select_related("owner").annotate(fse_count=Count("establishments"))


def hauler_list(user) -> QuerySet[HaulerCompany]:
    return haulers_visible_to(user).annotate(
        vehicle_count=Count("vehicles", distinct=True), customer_count=Count("customers", distinct=True)
    )


def hauler_detail(user, pk) -> HaulerCompany:
    """A hauler with its vehicles; raises DoesNotExist outside the user's scope."""
    return haulers_visible_to(user).prefetch_related("vehicles").get(pk=pk)


def hauler_customers(user, hauler: HaulerCompany) -> QuerySet[FoodServiceEstablishment] | None:
    """The FSEs that engaged the hauler: staff only (None for anyone else)."""
    if not (user.is_authenticated and user.is_program_staff):
        return None
    return hauler.customers.select_related("parcel")


def vehicle_detail(user, hauler_pk, pk):
    """A hauler's vehicle; raises DoesNotExist outside the user's scope."""
    return HaulerVehicle.objects.visible_to(user).select_related("hauler").get(pk=pk, hauler_id=hauler_pk)


def party_detail(user, pk) -> Party:
    """A contact with the parcels and FSEs it is named on (staff only, like every contact read)."""
    return (
        parties_visible_to(user)
        .prefetch_related(
            "owned_parcels",
            "designated_parcels",
            "operated_establishments",
            "contact_for_establishments",
        )
        .get(pk=pk)
    )
