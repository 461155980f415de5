"""Cases: the list, opening one, and the case page, a timeline of its steps with what is due next;
each step's form is shown only when the step is open, else the reason it is not."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import NoReverseMatch, reverse
from django.views.decorators.http import require_POST

from fogcontrol.core.errors import StateConflict
from fogcontrol.core.exports import Export
from fogcontrol.core.forms import show_service_errors
from fogcontrol.core.permissions import has_role, require_role
from fogcontrol.core.views import filtered_rows, found, paginate, render_list
from fogcontrol.enforcement import exports, forms
from fogcontrol.enforcement.actions import case_actions, missed_milestones
from fogcontrol.enforcement.filters import CaseFilter
from fogcontrol.enforcement.models import AdministrativeCitation, AgreementMilestone, Referral
from fogcontrol.enforcement.roles import ENFORCEMENT_OFFICERS, INTERNAL_NOTE_READERS, PAYMENT_RECORDERS
from fogcontrol.enforcement.selectors import cases as selectors
from fogcontrol.enforcement.selectors.steps import case_timeline, next_due
from fogcontrol.enforcement.selectors.violations import with_days
from fogcontrol.enforcement.services import cases as case_services
from fogcontrol.enforcement.services import steps as step_services
from fogcontrol.program.selectors import town_today

PAGE_SIZE = 50
OFFICERS_ONLY = step_services.OFFICERS_ONLY


@login_required
def case_list(request):
    filterset, rows = filtered_rows(CaseFilter, request, selectors.case_list(request.user))
    page = paginate(request, rows, PAGE_SIZE)
    context = {"filter": filterset, "page": page, "can_open": has_role(request.user, ENFORCEMENT_OFFICERS)}
    export = Export("cases", exports.CASE_COLUMNS, rows)
    return render_list(request, "enforcement/case_list.html", context, export=export)


@login_required
def case_new(request):
    require_role(request.user, ENFORCEMENT_OFFICERS, OFFICERS_ONLY)
    form = forms.CaseForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            case = case_services.case_open(
                acting_user=request.user,
                opened_on=town_today(),
                violations=list(data["establishment"].violations.filter(cured_on__isnull=True)),
                **data,
            )
        except ValidationError as error:
            show_service_errors(form, error)
        else:
            messages.success(
                request, f"Case {case.reference} opened with the establishment's open violations."
            )
            return redirect("enforcement:case_detail", case.pk)
    return render(request, "enforcement/case_new.html", {"form": form}, status=400 if form.errors else 200)


def _suspension_url(case) -> str:
    """H4 leads to suspension or revocation: the suspension notice of the case when that step exists,
    else the permit's order process (permits' L/M orders)."""
    try:
        return reverse("enforcement:suspension_notice_new", args=[case.pk])
    except NoReverseMatch:
        permit = case.establishment.permits.order_by("-first_issued_on", "-pk").first()
        return reverse("permits:order_new", args=[permit.pk]) if permit else ""


@login_required
def case_detail(request, pk: int):
    case = found(selectors.case_detail, request.user, pk)
    today = town_today()
    steps = case_timeline(case, today=today)
    actions = case_actions(request.user, case, today=today)
    officer = has_role(request.user, ENFORCEMENT_OFFICERS)
    context = {
        "case": case,
        "violations": with_days(case.violations.all(), today),
        "steps": steps,
        "next_due": next_due(steps),
        "actions": actions,
        "show_notes": request.user.has_role(*INTERNAL_NOTE_READERS),
        "missed": missed_milestones(case, today),
        "suspension_url": _suspension_url(case) if actions["suspension"] else "",
        "officer": officer,
        "records_payments": has_role(request.user, PAYMENT_RECORDERS),
    }
    if officer:
        context["forms"] = {
            "add_violations": forms.AddViolationsForm(case=case),
            "notice_of_violation": forms.NoticeForm(case=case),
            "citation": forms.CitationForm(case=case),
            "compliance_agreement": forms.AgreementForm(),
            "referral": forms.ReferralForm(case=case),
            "close": forms.CloseCaseForm(),
        }
        context["milestone_form"] = forms.MilestoneMetForm()
    return render(request, "enforcement/case_detail.html", context)


def _errors(form) -> str:
    return " ".join(
        f"{name.replace('_', ' ').capitalize()}: {' '.join(errs)}" for name, errs in form.errors.items()
    )


def _run(request, form, message: str, call) -> None:
    """Validate the form, call the service with its data, and say what happened (or why not)."""
    if not form.is_valid():
        messages.error(request, _errors(form))
        return
    try:
        call(form.cleaned_data)
    except ValidationError as exc:
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"": exc.messages}
        messages.error(
            request,
            " ".join(
                f"{k.replace('_', ' ').capitalize()}: {' '.join(v)}".lstrip(": ") for k, v in detail.items()
            ),
        )
    except (StateConflict, PermissionDenied) as exc:  # H3's AmountsOwed names the amounts
        messages.error(request, str(exc))
    else:
        messages.success(request, message)


# step -> (form, service call, message). The services refuse what case_actions refuses.
STEPS = {
    "add_violations": (
        lambda case, post: forms.AddViolationsForm(post, case=case),
        lambda user, case, today, d: case_services.case_add_violations(acting_user=user, case=case, **d),
        "Violations added to the case.",
    ),
    "notice_of_violation": (
        lambda case, post: forms.NoticeForm(post, case=case),
        lambda user, case, today, d: step_services.notice_of_violation_issue(
            acting_user=user, case=case, today=today, **d
        ),
        "Notice of violation recorded.",
    ),
    "citation": (
        lambda case, post: forms.CitationForm(post, case=case),
        lambda user, case, today, d: step_services.citation_issue(
            acting_user=user, case=case, today=today, **d
        ),
        "Administrative citation recorded (P2).",
    ),
    "compliance_agreement": (
        lambda case, post: forms.AgreementForm(post),
        lambda user, case, today, d: step_services.compliance_agreement_make(
            acting_user=user, case=case, today=today, **d
        ),
        "Compliance schedule agreement recorded (H1).",
    ),
    "referral": (
        lambda case, post: forms.ReferralForm(post, case=case),
        lambda user, case, today, d: step_services.referral_record(
            acting_user=user, case=case, today=today, **d
        ),
        "Referral recorded.",
    ),
    "close": (
        lambda case, post: forms.CloseCaseForm(post),
        lambda user, case, today, d: case_services.case_close(acting_user=user, case=case, **d),
        "Case closed.",
    ),
}


@login_required
@require_POST
def case_step(request, pk: int, step: str):
    """One step of the case, posted from its form on the case page."""
    case = found(selectors.case_detail, request.user, pk)
    if step not in STEPS:
        raise Http404("No such step.")
    require_role(request.user, ENFORCEMENT_OFFICERS, OFFICERS_ONLY)
    make_form, call, message = STEPS[step]
    today = town_today()
    _run(request, make_form(case, request.POST), message, lambda d: call(request.user, case, today, d))
    return redirect("enforcement:case_detail", case.pk)


def _record_on_child(request, pk, roles, denied, child, form, message, call):
    """Record one outcome on a case's milestone, referral or citation: the case in scope (else 404),
    the role, the child on that case (else 404), then the form and the service."""
    case = found(selectors.case_detail, request.user, pk)
    require_role(request.user, roles, denied)
    model, lookup, child_pk, noun = child
    obj = model.objects.filter(**{lookup: case}, pk=child_pk).first()
    if obj is None:
        raise Http404(f"No such {noun}.")
    _run(request, form, message, lambda d: call(obj, d))
    return redirect("enforcement:case_detail", case.pk)


@login_required
@require_POST
def milestone_met(request, pk: int, milestone_pk: int):
    return _record_on_child(
        request, pk, ENFORCEMENT_OFFICERS, OFFICERS_ONLY,
        (AgreementMilestone, "agreement__case", milestone_pk, "milestone"),
        forms.MilestoneMetForm(request.POST), "Milestone recorded as met.",
        lambda m, d: step_services.milestone_meet(acting_user=request.user, milestone=m, **d),
    )  # fmt: skip


@login_required
@require_POST
def referral_outcome(request, pk: int, referral_pk: int):
    return _record_on_child(
        request, pk, ENFORCEMENT_OFFICERS, OFFICERS_ONLY,
        (Referral, "case", referral_pk, "referral"),
        forms.ReferralOutcomeForm(request.POST), "Outcome recorded.",
        lambda r, d: step_services.referral_outcome_record(acting_user=request.user, referral=r, **d),
    )  # fmt: skip


@login_required
@require_POST
def citation_paid(request, pk: int, citation_pk: int):
    return _record_on_child(
        request, pk, PAYMENT_RECORDERS, "Only the FOG Manager and the Billing Clerk record payments.",
        (AdministrativeCitation, "case", citation_pk, "citation"),
        forms.CitationPaidForm(request.POST), "Payment recorded.",
        lambda c, d: step_services.citation_record_payment(acting_user=request.user, citation=c, **d),
    )  # fmt: skip
