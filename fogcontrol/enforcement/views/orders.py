"""Pages of the later steps of a case: the administrative complaint (P5), the suspension or
revocation notice (L1, L2), the emergency suspension (M1-M3), the penalty order (P7-P10) and the
termination of service (O1, O2); and a hearing with its continuances (L3) and decision (L4, P6, M3).

Each step page shows, before anything is saved, what the rules engine computes from the form as
filled in ("Show the dates" / "Show the cap": the same form posted with ``preview``): the P5 latest
hearing date, the L2 window, the M3 dates, the P7 cap, each with its working."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.core.roles import Role
from fogcontrol.core.views import found
from fogcontrol.enforcement import forms_orders as forms
from fogcontrol.enforcement.roles import ENFORCEMENT_OFFICERS, HEARING_RECORDERS, SUSPENSION_ISSUERS
from fogcontrol.enforcement.selectors import orders as selectors
from fogcontrol.enforcement.selectors.cases import cases_visible_to
from fogcontrol.enforcement.services import complaints, hearings, penalties, suspensions, terminations
from fogcontrol.enforcement.services.hearings import continuance_bound
from fogcontrol.program.selectors import town_today
from fogcontrol.rules.explain import fmt_date, fmt_money

MANAGER = frozenset({Role.FOG_MANAGER})


def _complaint_preview(v):
    start = v.get("served_on") or v.get("issued_on")
    if start:
        limit = complaints.complaint_hearing_limit(start)
        waiting = (
            "" if v.get("served_on") else " (counted from the issue until the mail log gives the day served)"
        )
        return [(f"P5: hearing no later than {fmt_date(limit.due)}{waiting}", limit.explanation.text())]
    return []


def _suspension_preview(v):
    w = suspensions.hearing_window(v.get("mailed_on") or town_today())
    waiting = "" if v.get("mailed_on") else " if mailed today (the mail log's date counts it again)"
    return [
        (f"L2: hearing from {fmt_date(w['earliest'])} to {fmt_date(w['latest'])}{waiting}", w["explanation"])
    ]


def _emergency_preview(v):
    if v.get("ordered_on"):
        d = suspensions.emergency_dates(v["ordered_on"], v.get("hearing_on"))
        return [(f"M3: hearing by {fmt_date(d['hearing_by'])}; decision by {fmt_date(d['decision_by'])}",
                 "\n".join(e["text"] for e in d["explanation"].values()))]  # fmt: skip
    return []


def _penalty_preview(v):
    if not v.get("violation_kind"):
        return []
    try:
        cap = penalties.cap_for(violation_kind=v["violation_kind"], days=v.get("days"), occurrences=v.get("occurrences"),
                                under_order=v.get("under_order"), on=town_today())  # fmt: skip
    except ValidationError as error:
        return [("The cap cannot be worked out yet", " ".join(error.messages))]
    return [(f"P7: cap {fmt_money(cap.max_amount)}", cap.explanation.text())]


def _complaint(request, case, v):
    return complaints.complaint_serve(
        acting_user=request.user, case=case, violations=list(case.violations.all()), **v
    )


def _suspension(request, case, v):
    return suspensions.suspension_notice_issue(acting_user=request.user, case=case, **v)


def _emergency(request, case, v):
    return suspensions.emergency_suspension_order(acting_user=request.user, case=case, **v)


def _penalty(request, case, v):
    factors = {name: v.pop(name) for name in penalties.FACTOR_FIELDS}
    return penalties.penalty_order_propose(acting_user=request.user, case=case, factors=factors, **v)


def _termination(request, case, v):
    return terminations.service_terminate(acting_user=request.user, case=case, **v)


# slug: (title, provisions, form, who, preview, submit)
STEPS = {
    "complaint": ("Administrative complaint", "P5, P6", forms.ComplaintForm, ENFORCEMENT_OFFICERS,
                  _complaint_preview, _complaint),
    "suspension-notice": ("Notice of proposed suspension or revocation", "L1-L6", forms.SuspensionNoticeForm,
                          SUSPENSION_ISSUERS, _suspension_preview, _suspension),
    "emergency-suspension": ("Emergency suspension order", "M1-M3", forms.EmergencyForm, SUSPENSION_ISSUERS,
                             _emergency_preview, _emergency),
    "penalty-order": ("Penalty order", "P3, P7-P10, P12", forms.PenaltyOrderForm, HEARING_RECORDERS,
                      _penalty_preview, _penalty),
    "termination": ("Termination of sewer service", "O1, O2", forms.TerminationForm, MANAGER, lambda v: [],
                    _termination),
}  # fmt: skip


DONE = {
    "penalty-order": "Penalty order proposed. It is issued only when a second Hearing Officer or FOG Manager "
    "approves it (Hearing work list, Penalty orders waiting for a second approval)."
}


def _form(form_class, data, case):
    if form_class is forms.TerminationForm:
        return form_class(data, case=case)
    return form_class(data)


def _partial_values(form) -> dict:
    """What the form holds so far, field by field (for the preview), ignoring fields not yet valid."""
    form.is_valid()
    return getattr(form, "cleaned_data", {})


@login_required
def order_step(request, pk, step):
    """GET: the step's form; POST with ``preview``: the computed dates or cap; POST: take the step."""
    case = found(
        lambda user, key: cases_visible_to(user).select_related("establishment").get(pk=key), request.user, pk
    )
    if step not in STEPS:
        raise Http404("No such step.")
    title, provisions, form_class, who, preview, submit = STEPS[step]
    require_role(request.user, who, f"You may not take this step: {title}.")
    status = 200
    if request.method == "POST":
        form = _form(form_class, request.POST, case)
        if "preview" not in request.POST and form.is_valid():
            try:
                submit(request, case, dict(form.cleaned_data))
            except ValidationError as error:
                for field, errors in error.message_dict.items():
                    form.add_error(field if field in form.fields else None, errors)
                status = 400
            except (StateConflict, PermissionDenied) as error:
                form.add_error(None, str(error))
                status = 409
            else:
                messages.success(request, DONE.get(step, f"{title}: recorded."))
                try:
                    return redirect("enforcement:case_detail", case.pk)
                except NoReverseMatch:  # the case page lives on the enforcement branch
                    return redirect(request.path)
        elif "preview" not in request.POST:
            status = 400
        computed = preview(_partial_values(form))
    else:
        form, computed = _form(form_class, None, case), []
    context = {"case": case, "title": title, "provisions": provisions, "form": form, "computed": computed,
               "step": step}  # fmt: skip
    return render(request, "enforcement/order_step.html", context, status=status)


@login_required
def suspension_notice_new(request, pk):
    """The suspension or revocation notice's page (the case page's H4 link)."""
    return order_step(request, pk, "suspension-notice")


@login_required
def hearing_detail(request, pk):
    """A hearing: its dates (the latest lawful date, the L4 / M3 decision date), continuances, and the
    Hearing Officer's forms."""
    hearing = found(lambda user, key: selectors.hearing_list(user).get(pk=key), request.user, pk)
    latest, provision, _bound = continuance_bound(hearing)
    context = {
        "hearing": hearing,
        "continuance_latest": latest,
        "continuance_provision": provision,
        # L2, P5: the notice waits for the certified mail run; its date comes from the mail log.
        "waiting_for_mailing": bool(
            hearing.explanation.get("L2-waiting") or hearing.explanation.get("P5-waiting")
        ),
        "continuance_form": forms.ContinuanceForm(),
        "decision_form": forms.DecisionForm(),
        "can_record": request.user.has_role(*HEARING_RECORDERS),
    }
    return render(request, "enforcement/hearing_detail.html", context)


def _hearing_step(request, pk, form_class, act):
    hearing = found(lambda user, key: selectors.hearing_list(user).get(pk=key), request.user, pk)
    require_role(
        request.user, HEARING_RECORDERS, "Only the Hearing Officer or the FOG Manager records hearings."
    )
    form = form_class(request.POST)
    if not form.is_valid():
        messages.error(request, " ".join(f"{name}: {' '.join(e)}" for name, e in form.errors.items()))
        return redirect("enforcement:hearing_detail", hearing.pk)
    try:
        act(acting_user=request.user, hearing=hearing, **form.cleaned_data)
    except (ValidationError, StateConflict) as error:
        messages.error(request, " ".join(getattr(error, "messages", [str(error)])))
    else:
        messages.success(request, _("Recorded."))
    return redirect("enforcement:hearing_detail", hearing.pk)


@login_required
@require_POST
def hearing_continue(request, pk):
    return _hearing_step(request, pk, forms.ContinuanceForm, hearings.hearing_continue)


@login_required
@require_POST
def hearing_decide(request, pk):
    return _hearing_step(request, pk, forms.DecisionForm, hearings.hearing_decide)
