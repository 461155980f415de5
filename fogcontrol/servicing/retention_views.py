"""F5 pages: litigation holds on a device's records, and purging a manifest after its retention.

Town staff see them; only the FOG Manager places or releases a hold or purges (the services check).
"""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from fogcontrol.core.errors import StateConflict
from fogcontrol.servicing import selectors
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.services.retention import (
    hold_place,
    hold_release,
    manifest_purge,
    manifest_purge_decision,
)


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=2000)


def _fetch(fetch, user, pk):
    try:
        return fetch(user, pk)
    except ObjectDoesNotExist as exc:
        raise Http404("Not found.") from exc


@login_required
def device_holds(request, pk):
    device, holds = _fetch(selectors.holds_for_device, request.user, pk)
    form = ReasonForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                hold_place(device=device, acting_user=request.user, reason=form.cleaned_data["reason"])
            except PermissionDenied as error:
                form.add_error(None, str(error))
                status = 403
            except ValidationError as error:
                form.add_error("reason", error.message_dict.get("reason", error.messages))
                status = 400
            else:
                messages.success(
                    request, f"Records of {device.identifier} are held until the hold is released (F5)."
                )
                return redirect("servicing:device_holds", pk=pk)
        else:
            status = 400
    return render(
        request,
        "servicing/device_holds.html",
        {"device": device, "holds": holds, "form": form},
        status=status,
    )


@login_required
@require_POST
def hold_release_view(request, pk):
    hold = _fetch(selectors.hold_detail, request.user, pk)
    try:
        hold_release(hold=hold, acting_user=request.user)
    except (PermissionDenied, StateConflict) as error:
        messages.error(request, str(error))
    else:
        messages.success(request, "The hold is released; the records follow the F5 retention period again.")
    return redirect("servicing:device_holds", pk=hold.device_id)


@login_required
def manifest_purge_view(request, pk):
    manifest = _fetch(selectors.manifest_for_purge, request.user, pk)
    decision = manifest_purge_decision(manifest, ctx=ProgramContext())
    form = ReasonForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                manifest_purge(
                    manifest=manifest, acting_user=request.user, reason=form.cleaned_data["reason"]
                )
            except (PermissionDenied, StateConflict) as error:
                form.add_error(None, str(error))
                status = 403 if isinstance(error, PermissionDenied) else 409
            else:
                messages.success(
                    request,
                    f"Manifest {manifest.manifest_number} was purged; the purge log keeps its hash (F5).",
                )
                return redirect("servicing:device_history", pk=manifest.device_id)
        else:
            status = 400
    return render(
        request,
        "servicing/manifest_purge.html",
        {"manifest": manifest, "decision": decision, "form": form},
        status=status,
    )
