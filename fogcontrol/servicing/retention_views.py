"""F5 pages: litigation holds on a device's records, the Town's approvals to destroy its records
(Gov. Code §34090), purging a manifest after its retention, and the report of each purge.

Town staff see them; only the FOG Manager places or releases a hold, records an approval or purges
(the services check).
"""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from fogcontrol.core.errors import StateConflict
from fogcontrol.core.forms import show_service_errors
from fogcontrol.core.permissions import require_role
from fogcontrol.core.views import found, paginate, staff_only
from fogcontrol.servicing import selectors
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.models import RetentionApproval
from fogcontrol.servicing.permissions import STEP_ROLES
from fogcontrol.servicing.services.retention import (
    hold_place,
    hold_release,
    manifest_purge,
    manifest_purge_decision,
    retention_approval_covering,
    retention_approval_record,
)

DATE = forms.DateInput(attrs={"type": "date"})


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), max_length=2000)


class RetentionApprovalForm(forms.Form):
    """Gov. Code §34090: the council resolution and the city attorney's consent, for a class and range."""

    record_class = forms.ChoiceField(choices=RetentionApproval.RecordClass.choices, label="Records")
    records_from = forms.DateField(widget=DATE, label="Dated from")
    records_to = forms.DateField(widget=DATE, label="Dated to (inclusive)")
    council_resolution_number = forms.CharField(max_length=64, label="Council resolution number")
    council_resolution_date = forms.DateField(widget=DATE, label="Resolution adopted on")
    city_attorney_name = forms.CharField(max_length=150, label="City attorney")
    city_attorney_consent_date = forms.DateField(widget=DATE, label="Written consent dated")
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))


def _fetch(fetch, user, pk):
    try:
        return fetch(user, pk)
    except ObjectDoesNotExist as exc:
        raise Http404("Not found.") from exc


@login_required
def device_holds(request, pk):
    device, holds = _fetch(selectors.holds_for_device, request.user, pk)
    if request.method == "POST":
        require_role(request.user, *STEP_ROLES["retention"])
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
    require_role(request.user, *STEP_ROLES["retention"])
    try:
        hold_release(hold=hold, acting_user=request.user)
    except (PermissionDenied, StateConflict) as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request, _("The hold is released; the records follow the F5 retention period again.")
        )
    return redirect("servicing:device_holds", pk=hold.device_id)


@login_required
def manifest_purge_view(request, pk):
    manifest = _fetch(selectors.manifest_for_purge, request.user, pk)
    if request.method == "POST":
        require_role(request.user, *STEP_ROLES["retention"])
    decision = manifest_purge_decision(manifest, ctx=ProgramContext())
    approval = retention_approval_covering(RetentionApproval.RecordClass.MANIFESTS, manifest.service_date)
    form = ReasonForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                report = manifest_purge(
                    manifest=manifest, acting_user=request.user, reason=form.cleaned_data["reason"]
                )
            except (PermissionDenied, StateConflict) as error:
                form.add_error(None, str(error))
                status = 403 if isinstance(error, PermissionDenied) else 409
            except ValidationError as error:
                show_service_errors(form, error)
                status = 400
            else:
                messages.success(
                    request,
                    f"Manifest {manifest.manifest_number} was purged under {report.approval}; the purge log "
                    "keeps each record's hash (F5, Gov. Code §34090).",
                )
                return redirect("servicing:purge_report", pk=report.pk)
        else:
            status = 400
    return render(
        request,
        "servicing/manifest_purge.html",
        {"manifest": manifest, "decision": decision, "approval": approval, "form": form},
        status=status,
    )


@login_required
def retention(request):
    """Gov. Code §34090: the Town's approvals to destroy its records, recording one (FOG Manager), and
    the reports of past purges."""
    staff_only(request.user)
    if request.method == "POST":
        require_role(request.user, *STEP_ROLES["retention"])
    form = RetentionApprovalForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                approval = retention_approval_record(acting_user=request.user, **form.cleaned_data)
            except PermissionDenied as error:
                form.add_error(None, str(error))
                status = 403
            except ValidationError as error:
                show_service_errors(form, error)
            else:
                messages.success(request, f"Recorded: {approval} (Gov. Code §34090).")
                return redirect("servicing:retention")
    context = {
        "form": form,
        "approvals": selectors.retention_approvals_visible_to(request.user),
        "page": paginate(request, selectors.purge_reports_visible_to(request.user), 50),
    }
    return render(request, "servicing/retention.html", context, status=status)


@login_required
def purge_report(request, pk):
    """What one purge destroyed, under which approval, by whom and why."""
    report = found(lambda user, key: selectors.purge_reports_visible_to(user).get(pk=key), request.user, pk)
    return render(request, "servicing/purge_report.html", {"report": report})
