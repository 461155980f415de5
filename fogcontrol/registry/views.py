"""Registry pages: establishments, devices, parcels, contacts and haulers (A1-A5).

Thin views: reads go through fogcontrol.registry.selectors (scoped to the user: anything outside
the user's scope is a 404, never a 403, so a record's existence does not leak) and writes through
fogcontrol.registry.services (validated and audited). Lists use the shared FilterSets of
fogcontrol.registry.filters, so a page's URL (`?status=active`) means what the API's does.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.forms import NullBooleanSelect
from django.http import QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from fogcontrol.audit.selectors import change_history
from fogcontrol.core.errors import StaleRecord, StateConflict
from fogcontrol.core.exports import Export
from fogcontrol.core.forms import show_service_errors
from fogcontrol.core.owed import amounts_owed
from fogcontrol.core.permissions import require_role
from fogcontrol.core.roles import REGISTRY_EDITORS, Role
from fogcontrol.core.views import SEARCH_FIELD, found, live_filters, paginate, render_list, staff_only
from fogcontrol.program.selectors import program_read_once, ruleset_on, town_today
from fogcontrol.registry import exports, selectors, services
from fogcontrol.registry.actions import establishment_actions, establishment_reopen_verdict
from fogcontrol.registry.filters import (
    DeviceFilter,
    EstablishmentFilter,
    HaulerFilter,
    ParcelFilter,
    PartyFilter,
)
from fogcontrol.registry.forms import (
    DeviceForm,
    EstablishmentForm,
    HaulerForm,
    ParcelForm,
    PartyForm,
    VehicleForm,
)
from fogcontrol.registry.models import (
    FoodServiceEstablishment,
    GreaseControlDevice,
    HaulerCompany,
    HaulerVehicle,
    Parcel,
    Party,
)
from fogcontrol.rules.devices import default_frequency
from fogcontrol.rules.sizing import a4_flags

PER_PAGE = 25
# Filters the home page links to as `?shared=1`; django-filter's yes/no widget reads only
# "true"/"false", and would silently ignore "1" (showing every device under a "shared" heading).
_YES = {"1", "yes", "on", "True", "true"}
_NO = {"0", "no", "off", "False", "false"}

_DETAIL_URLS = {
    FoodServiceEstablishment: "registry:establishment_detail",
    GreaseControlDevice: "registry:device_detail",
    Parcel: "registry:parcel_detail",
    Party: "registry:party_detail",
    HaulerCompany: "registry:hauler_detail",
}


def detail_url(obj) -> str:
    if isinstance(obj, HaulerVehicle):
        return reverse("registry:hauler_detail", args=[obj.hauler_id])
    return reverse(_DETAIL_URLS[type(obj)], args=[obj.pk])


# --- Access ---------------------------------------------------------------------------------


def _editors_only(user) -> None:
    """Outside users: 404. Staff who may not change the registry: 403."""
    staff_only(user)
    require_role(user, REGISTRY_EDITORS, "Only the FOG Manager and inspectors may change the registry.")


# --- Lists ----------------------------------------------------------------------------------


def _filter_data(query: QueryDict, filterset_class) -> QueryDict:
    """The query string with yes/no filters spelt the way the FilterSet reads them."""
    data = query.copy()
    for name, field in filterset_class.base_filters.items():
        if field.__class__.__name__ != "BooleanFilter" or name not in data:
            continue
        value = data.get(name)
        data[name] = "true" if value in _YES else "false" if value in _NO else ""
    return data


def _any_choice(filterset) -> None:
    """Yes/no and record filters offer "Any" for no filter; the search box says what it searches."""
    for name, field in filterset.form.fields.items():
        if isinstance(field.widget, NullBooleanSelect):
            field.widget.choices = [("unknown", _("Any")), ("true", _("Yes")), ("false", _("No"))]
        elif getattr(field, "empty_label", None):
            field.empty_label = _("Any")
        if name == SEARCH_FIELD:
            field.widget.attrs["placeholder"] = _("Name, licence, address or parcel")


def _list_page(
    request, *, queryset, filterset_class, template: str, shown: tuple[str, ...], export, page_rows=None
):
    """A filtered, paginated list; `shown` names the filters the page offers (others stay hidden);
    `page_rows` narrows the rows of the page shown to what it reads (the export keeps them whole)."""
    filterset = filterset_class(
        _filter_data(request.GET, filterset_class), queryset=queryset, request=request
    )
    live_filters(filterset, request.path)
    _any_choice(filterset)
    rows = filterset.qs
    if not rows.ordered:
        # Django drops Meta.ordering from GROUP BY queries (the counts); pages need a stable order.
        rows = rows.order_by(*rows.model._meta.ordering)
    page = paginate(request, rows if page_rows is None else page_rows(rows), PER_PAGE)
    context = {"filter": filterset, "page": page, "rows": page.object_list, "shown": shown}
    name, columns = export
    return render_list(request, template, context, export=Export(name, columns, rows))


@login_required
def establishment_list(request):
    """FSEs; an outside user sees only its own."""
    return _list_page(
        request,
        queryset=selectors.establishment_list(request.user),
        filterset_class=EstablishmentFilter,
        template="registry/establishment_list.html",
        export=("establishments", exports.ESTABLISHMENT_COLUMNS),
        shown=("q", "status", "category", "apn", "has_device"),
        page_rows=selectors.establishment_list_page,
    )


@login_required
def device_list(request):
    return _list_page(
        request,
        queryset=selectors.device_list(request.user),
        filterset_class=DeviceFilter,
        template="registry/device_list.html",
        export=("devices", exports.DEVICE_COLUMNS),
        shown=("q", "kind", "status", "flagged", "shared"),
    )


@login_required
def parcel_list(request):
    return _list_page(
        request,
        queryset=selectors.parcel_list(request.user),
        filterset_class=ParcelFilter,
        template="registry/parcel_list.html",
        export=("parcels", exports.PARCEL_COLUMNS),
        shown=("q",),
    )


@login_required
def party_list(request):
    """Contacts hold personal data: staff only."""
    staff_only(request.user)
    return _list_page(
        request,
        queryset=selectors.parties_visible_to(request.user),
        filterset_class=PartyFilter,
        template="registry/party_list.html",
        export=("parties", exports.PARTY_COLUMNS),
        shown=("q", "kind"),
    )


@login_required
def hauler_list(request):
    return _list_page(
        request,
        queryset=selectors.hauler_list(request.user),
        filterset_class=HaulerFilter,
        template="registry/hauler_list.html",
        export=(
            "haulers",
            exports.HAULER_STAFF_COLUMNS if request.user.is_program_staff else exports.HAULER_COLUMNS,
        ),
        shown=("q", "active"),
    )


# --- Details --------------------------------------------------------------------------------


def _device_rows(devices) -> list[dict]:
    """Devices with the names of the FSEs each serves and who answers for each (A2/A3), read in one
    query (``selectors.establishments_served``)."""
    served = selectors.establishments_served(devices)
    return [
        {
            "device": device,
            "served": [name for name, _ in served[device.pk]],
            "responsibility": selectors.responsibility_of_served(served[device.pk]),
        }
        for device in devices
    ]


def _read_with(fse: FoodServiceEstablishment) -> list:
    """The related records ``establishment_page`` read whole with the FSE, which its change history
    names (issue 16: not read again, one query per model, to write the same names)."""
    parties = (fse.parcel, fse.operator, fse.contact)
    return [record for record in parties if record is not None] + list(fse.haulers.all())


@login_required
@program_read_once
def establishment_detail(request, pk: int):
    fse = found(selectors.establishment_page, request.user, pk)
    context = {
        "fse": fse,
        "actions": establishment_actions(request.user, fse),
        "devices": _device_rows(fse.devices.all()),
        # The history names the parcel, parties and haulers from the rows the page has read.
        "history": change_history(request.user, fse, known=_read_with(fse)),
        # Q1, Q2, H3: what the establishment owes the Town, answered by billing through core.owed
        # (the registry lies below billing). A hauler is not told its customers' debts.
        "owed": amounts_owed(fse.pk, town_today()) if request.user.role != Role.HAULER else [],
    }
    return render(request, "registry/establishment_detail.html", context)


@login_required
def device_detail(request, pk: int):
    device = found(selectors.device_detail, request.user, pk)
    responsibility = selectors.responsibility_for(device)
    recipient = selectors.notice_recipient_for(device, responsibility)
    parcels = [device.parcel, *(fse.parcel for fse in device.establishments.all())]
    ruleset = ruleset_on(town_today())
    said_flags = a4_flags(device.kind, device.compartments, device.manhole_diameter_in, ruleset)
    context = {
        "device": device,
        # The stored A4 flags, said again in the reader's language when the rules say the same (issue 18).
        "a4_flags": said_flags if tuple(device.a4_flags or ()) == said_flags else device.a4_flags,
        "responsibility": responsibility,
        "recipient": recipient,
        "recipient_is_fse": isinstance(recipient, FoodServiceEstablishment),
        "recipient_is_designee": any(
            parcel is not None and recipient is not None and parcel.owner_designee_id == recipient.pk
            for parcel in parcels
        )
        and not isinstance(recipient, FoodServiceEstablishment),
        "default_frequency_days": default_frequency(device.kind, ruleset),
        "history": change_history(request.user, device),
    }
    return render(request, "registry/device_detail.html", context)


@login_required
def parcel_detail(request, pk: int):
    parcel = found(selectors.parcel_detail, request.user, pk, establishment_ids=False)
    context = {
        "parcel": parcel,
        "devices": _device_rows(parcel.visible_devices),
        "history": change_history(request.user, parcel),
    }
    return render(request, "registry/parcel_detail.html", context)


@login_required
def party_detail(request, pk: int):
    staff_only(request.user)
    party = found(selectors.party_detail, request.user, pk)
    return render(
        request,
        "registry/party_detail.html",
        {"party": party, "history": change_history(request.user, party)},
    )


@login_required
def hauler_detail(request, pk: int):
    hauler = found(selectors.hauler_detail, request.user, pk)
    context = {
        "hauler": hauler,
        # Which businesses a hauler serves is the program's knowledge, not other customers'.
        "customers": selectors.hauler_customers(request.user, hauler),
        "history": change_history(request.user, hauler),
    }
    return render(request, "registry/hauler_detail.html", context)


# --- Forms ----------------------------------------------------------------------------------


def _form_page(request, *, form, title: str, save, success: str, cancel_url: str, subject=None):
    """Show the form; on a valid POST call `save` (a service) and go to the saved record.

    A ValidationError from the service is shown beside the field it names; nothing is saved.
    A stale copy (someone saved the record meanwhile) is refused with 409 and the input kept.
    """
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            saved = save(**form.service_kwargs())
        except ValidationError as error:
            show_service_errors(form, error)
        except StaleRecord as refusal:
            # Someone saved the record since this form was opened: nothing is overwritten, the
            # person's input is kept and they are told (core/concurrency.py).
            form.refused_as_stale(refusal)
            status = 409
        else:
            messages.success(request, success.format(obj=saved))
            return redirect(detail_url(saved))
    context = {"form": form, "title": title, "cancel_url": cancel_url, "subject": subject}
    return render(request, "registry/form.html", context, status=status)


def _scoped_id(queryset, value):
    """The id in a query string (?parcel=3) if it names a record the user may see; else None."""
    try:
        return queryset.filter(pk=int(value)).values_list("pk", flat=True).first()
    except (TypeError, ValueError):
        return None


@login_required
def establishment_create(request):
    _editors_only(request.user)
    parcel_id = _scoped_id(selectors.parcels_visible_to(request.user), request.GET.get("parcel"))
    form = EstablishmentForm(request.POST or None, initial={"parcel": parcel_id})
    return _form_page(
        request,
        form=form,
        title="Register a food service establishment",
        save=lambda **data: services.establishment_create(acting_user=request.user, **data),
        success="{obj} was registered.",
        cancel_url=reverse("registry:establishment_list"),
    )


@login_required
def establishment_edit(request, pk: int):
    _editors_only(request.user)
    fse = found(selectors.establishment_detail, request.user, pk)
    return _form_page(
        request,
        form=EstablishmentForm(request.POST or None, instance=fse),
        title=f"Edit {fse}",
        save=lambda **data: services.establishment_update(
            establishment=fse, acting_user=request.user, **data
        ),
        success="{obj} was saved.",
        cancel_url=detail_url(fse),
        subject=fse,
    )


@login_required
@require_POST
def establishment_close(request, pk: int):
    """Close an FSE (it keeps its devices' records and its history)."""
    _editors_only(request.user)
    fse = found(selectors.establishment_detail, request.user, pk)
    try:
        services.establishment_close(establishment=fse, acting_user=request.user)
    except StateConflict as refusal:
        messages.error(request, str(refusal))
    else:
        messages.success(request, f"{fse} was closed. Its records and history are kept.")
    return redirect(detail_url(fse))


@login_required
@require_POST
def establishment_reopen(request, pk: int):
    _editors_only(request.user)
    fse = found(selectors.establishment_detail, request.user, pk)
    if not (verdict := establishment_reopen_verdict(fse)):
        messages.error(request, verdict.reason)
    else:
        services.establishment_update(
            establishment=fse, acting_user=request.user, status=FoodServiceEstablishment.Status.ACTIVE
        )
        messages.success(request, f"{fse} was reopened.")
    return redirect(detail_url(fse))


@login_required
def device_create(request):
    _editors_only(request.user)
    initial = {}
    fse_id = _scoped_id(selectors.establishments_visible_to(request.user), request.GET.get("establishment"))
    if fse_id:
        fse = selectors.establishment_detail(request.user, fse_id)
        initial = {"establishments": [fse.pk], "parcel": fse.parcel_id}
    parcel_id = _scoped_id(selectors.parcels_visible_to(request.user), request.GET.get("parcel"))
    if parcel_id:
        initial["parcel"] = parcel_id
    return _form_page(
        request,
        form=DeviceForm(request.POST or None, initial=initial),
        title="Register a grease control device",
        save=lambda **data: services.device_create(acting_user=request.user, **data),
        success="{obj} was registered.",
        cancel_url=reverse("registry:device_list"),
    )


@login_required
def device_edit(request, pk: int):
    _editors_only(request.user)
    device = found(selectors.device_detail, request.user, pk)
    return _form_page(
        request,
        form=DeviceForm(request.POST or None, instance=device),
        title=f"Edit {device}",
        save=lambda **data: services.device_update(device=device, acting_user=request.user, **data),
        success="{obj} was saved.",
        cancel_url=detail_url(device),
        subject=device,
    )


@login_required
def parcel_create(request):
    _editors_only(request.user)
    return _form_page(
        request,
        form=ParcelForm(request.POST or None),
        title="Add a parcel",
        save=lambda **data: services.parcel_create(acting_user=request.user, **data),
        success="Parcel {obj} was added.",
        cancel_url=reverse("registry:parcel_list"),
    )


@login_required
def parcel_edit(request, pk: int):
    _editors_only(request.user)
    parcel = found(selectors.parcel_detail, request.user, pk)
    return _form_page(
        request,
        form=ParcelForm(request.POST or None, instance=parcel),
        title=f"Edit parcel {parcel.apn}",
        save=lambda **data: services.parcel_update(parcel=parcel, acting_user=request.user, **data),
        success="Parcel {obj} was saved.",
        cancel_url=detail_url(parcel),
        subject=parcel,
    )


@login_required
def party_create(request):
    _editors_only(request.user)
    return _form_page(
        request,
        form=PartyForm(request.POST or None),
        title="Add a contact",
        save=lambda **data: services.party_create(acting_user=request.user, **data),
        success="{obj} was added.",
        cancel_url=reverse("registry:party_list"),
    )


@login_required
def party_edit(request, pk: int):
    _editors_only(request.user)
    party = found(selectors.party_detail, request.user, pk)
    return _form_page(
        request,
        form=PartyForm(request.POST or None, instance=party),
        title=f"Edit {party}",
        save=lambda **data: services.party_update(party=party, acting_user=request.user, **data),
        success="{obj} was saved.",
        cancel_url=detail_url(party),
        subject=party,
    )


@login_required
def hauler_create(request):
    _editors_only(request.user)
    return _form_page(
        request,
        form=HaulerForm(request.POST or None),
        title="Add a grease hauler",
        save=lambda **data: services.hauler_create(acting_user=request.user, **data),
        success="{obj} was added.",
        cancel_url=reverse("registry:hauler_list"),
    )


@login_required
def hauler_edit(request, pk: int):
    _editors_only(request.user)
    hauler = found(selectors.hauler_detail, request.user, pk)
    return _form_page(
        request,
        form=HaulerForm(request.POST or None, instance=hauler),
        title=f"Edit {hauler}",
        save=lambda **data: services.hauler_update(hauler=hauler, acting_user=request.user, **data),
        success="{obj} was saved.",
        cancel_url=detail_url(hauler),
        subject=hauler,
    )


@login_required
def vehicle_create(request, hauler_pk: int):
    _editors_only(request.user)
    hauler = found(selectors.hauler_detail, request.user, hauler_pk)
    return _form_page(
        request,
        form=VehicleForm(request.POST or None),
        title=f"Add a vehicle to {hauler}",
        save=lambda **data: services.vehicle_create(acting_user=request.user, hauler=hauler, **data),
        success="Vehicle {obj} was added.",
        cancel_url=detail_url(hauler),
        subject=hauler,
    )


@login_required
def vehicle_edit(request, hauler_pk: int, pk: int):
    _editors_only(request.user)
    vehicle = found(selectors.vehicle_detail, request.user, hauler_pk, pk)
    return _form_page(
        request,
        form=VehicleForm(request.POST or None, instance=vehicle),
        title=f"Edit vehicle {vehicle.plate}",
        save=lambda **data: services.vehicle_update(vehicle=vehicle, acting_user=request.user, **data),
        success="Vehicle {obj} was saved.",
        cancel_url=detail_url(vehicle),
        subject=vehicle.hauler,
    )
