"""Pages that record a step on one record of a case, each calling its service: the administrative
complaint's waiver (P6), its appeal to the Town Council and the Council's outcome (P6), the
suspension or revocation order's appeal and its outcome (L6: a final order is applied to the permit),
and sewer service reinstated after a termination, with its cost (O2).

Each page says whether the step is open now and, if not, why (``actions_records``: core's
Allowed/Refused); a refused submission shows the service's reason and saves nothing."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.http import Http404
from django.shortcuts import redirect, render

from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.core.roles import Role
from fogcontrol.core.views import found
from fogcontrol.enforcement import actions_records as verdicts
from fogcontrol.enforcement import forms_records as forms
from fogcontrol.enforcement.roles import HEARING_RECORDERS
from fogcontrol.enforcement.selectors.cases import cases_visible_to
from fogcontrol.enforcement.services import complaints, suspensions, terminations
from fogcontrol.permits.states import TransitionNotAllowed
from fogcontrol.program.selectors import town_today
from fogcontrol.rules.explain import fmt_date

MANAGER = frozenset({Role.FOG_MANAGER})


def _complaint(case, pk):
    complaint = case.complaints.select_related("hearing").get(pk=pk)
    served = f"served {fmt_date(complaint.served_on)}" if complaint.served_on else "waiting for mailing"
    return complaint, f"Complaint {complaint.reference}, {served}" + (
        f"; appeal possible until {fmt_date(complaint.appeal_by)} (P6)" if complaint.appeal_by else ""
    ) + (f"; {complaint.get_appeal_status_display().lower()}" if complaint.appeal_status else "")


def _hearing(case, pk):
    hearing = case.hearings.select_related("permit_order__permit").get(pk=pk)
    order = hearing.permit_order
    summary = str(hearing)
    if order is not None:
        summary += f"; order {order.reference}: {order.get_appeal_status_display()}"
    return hearing, summary


def _termination(case, pk):
    termination = case.terminations.get(pk=pk)
    return (
        termination,
        f"Sewer service terminated on {fmt_date(termination.terminated_on)}: {termination.how}",
    )


# slug: (title, provisions, load, form, who, verdict(user, record), submit(user, record, values))
STEPS = {
    "waiver": ("Waiver of the complaint's hearing", "P6", _complaint, forms.WaiverForm, HEARING_RECORDERS,
               lambda user, c: verdicts.waiver_verdict(user, c, c.hearing),
               lambda user, c, v: complaints.complaint_waive(acting_user=user, complaint=c, **v)),
    "complaint-appeal": ("Appeal to the Town Council", "P6", _complaint, forms.ComplaintAppealForm, HEARING_RECORDERS,
                         lambda user, c: verdicts.complaint_appeal_verdict(user, c, town_today()),
                         lambda user, c, v: complaints.complaint_appeal(acting_user=user, complaint=c, **v)),
    "order-appeal": ("Appeal of the suspension or revocation order", "L6", _hearing, forms.OrderAppealForm, MANAGER,
                     verdicts.order_appeal_verdict,
                     lambda user, h, v: suspensions.suspension_appeal_record(acting_user=user, hearing=h, **v)),
    "reinstatement": ("Sewer service reinstated", "O2", _termination, forms.ReinstatementForm, MANAGER,
                      verdicts.reinstatement_verdict,
                      lambda user, t, v: terminations.service_reinstate(acting_user=user, termination=t, **v)),
}  # fmt: skip


@login_required
def record_step(request, pk, step, record):
    """GET: whether the step is open (its form) or why not; POST: take it through its service."""
    case = found(
        lambda user, key: cases_visible_to(user).select_related("establishment").get(pk=key), request.user, pk
    )
    if step not in STEPS:
        raise Http404("No such step.")
    title, provisions, load, form_class, who, verdict_of, submit = STEPS[step]
    try:
        obj, summary = load(case, record)
    except ObjectDoesNotExist as error:  # not a record of this case
        raise Http404("No such record in this case.") from error
    require_role(request.user, who, f"You may not take this step: {title}.")
    status = 200
    form = form_class(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                submit(request.user, obj, dict(form.cleaned_data))
            except ValidationError as error:
                for field, errors in error.message_dict.items():
                    form.add_error(field if field in form.fields else None, errors)
                status = 400
            except (StateConflict, TransitionNotAllowed) as error:
                form.add_error(None, str(error))
                status = 409
            else:
                messages.success(request, f"{title}: recorded.")
                return redirect("enforcement:case_detail", case.pk)
        else:
            status = 400
    context = {"case": case, "title": title, "provisions": provisions, "summary": summary, "form": form,
               "verdict": verdict_of(request.user, obj)}  # fmt: skip
    return render(request, "enforcement/record_step.html", context, status=status)
