"""Application pages: open a draft, fill it (B3 or B4), submit, and the staff review (B5).

Thin views: reads through fogcontrol.permits.selectors (outside the user's scope: 404), writes
through fogcontrol.permits.services. A refused step shows its reason: a bad field beside the field
(400), an illegal transition above the page (409); nothing already saved is lost.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from fogcontrol.core.errors import StaleRecord
from fogcontrol.core.exports import Export
from fogcontrol.core.forms import show_service_errors
from fogcontrol.core.fresh_auth import reauthenticate_or_none, restored_form_data
from fogcontrol.core.permissions import require_role
from fogcontrol.core.views import filtered_rows, found, live_filters, paginate, render_list
from fogcontrol.permits import exports, forms, selectors, services
from fogcontrol.permits.actions import application_actions
from fogcontrol.permits.filters import ApplicationFilter
from fogcontrol.permits.models import ApplicationStatus, FeeCharge
from fogcontrol.permits.roles import STEP_ROLES
from fogcontrol.permits.selectors_l5 import l5_warnings
from fogcontrol.permits.services.device_conditions import device_findings
from fogcontrol.permits.services.permit_versions import carried_device_condition, current_conditions
from fogcontrol.permits.services.permits import default_service_frequency
from fogcontrol.permits.sizing import application_sizing
from fogcontrol.permits.states import TransitionNotAllowed
from fogcontrol.program.selectors import ruleset_on, town_today

S = ApplicationStatus
# Rows per page of the permits lists.
PER_PAGE = 25


def _applicant_establishments(user):
    return selectors.establishments_to_file_for(user)


@login_required
def application_list(request):
    """The staff work queue (filter by state) and, for an FSE, its own applications."""
    queryset = selectors.application_list(request.user).order_by("-created_at", "-pk")
    filterset, rows = filtered_rows(ApplicationFilter, request, queryset)
    live_filters(filterset, request.path)
    page = paginate(request, rows, PER_PAGE)
    context = {
        "filter": filterset,
        "page": page,
        "rows": page.object_list,
        "counts": selectors.application_queue_counts(request.user),
        "can_apply": _applicant_establishments(request.user).exists(),
    }
    export = Export("applications", exports.APPLICATION_COLUMNS, rows)
    return render_list(request, "permits/application_list.html", context, export=export)


@login_required
def application_new(request):
    """Open a draft: choose the establishment and the route (B3 application or B4 documents)."""
    require_role(request.user, *STEP_ROLES["apply"])
    establishments = _applicant_establishments(request.user)
    form = forms.StartForm(request.POST or None, establishments=establishments)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            application = services.application_create(
                acting_user=request.user,
                establishment=form.cleaned_data["establishment"],
                route=form.cleaned_data["route"],
            )
        except ValidationError as error:
            show_service_errors(form, error)
        else:
            messages.success(
                request,
                _("Draft %(reference)s opened. Fill it in, then submit it.")
                % {"reference": application.reference},
            )
            return redirect("permits:application_edit", application.pk)
    if request.method == "POST":
        status = 400
    return render(request, "permits/form.html", {"form": form, "title": _("Apply for a FOG permit"),
                  "intro": _("Every food service establishment must hold a FOG Permit (B1). Choose the full "
                             "application (B3), or show the Building and Safety documents for an installed, "
                             "code-compliant device instead (B4)."),
                  "submit": _("Open the draft")}, status=status)  # fmt: skip


@login_required
def application_edit(request, pk):
    """Fill in a draft: the B3 items and the fixture list (or the B4 permit number and documents)."""
    application = found(selectors.application_detail, request.user, pk)
    require_role(request.user, *STEP_ROLES["edit"])
    if application.status != S.DRAFT:
        messages.error(
            request, _("This application has been submitted: it is a copy of record and cannot change.")
        )
        return redirect("permits:application_detail", pk)
    # Staff submitting for an FSE sign on its behalf: only just authenticated (core/fresh_auth.py).
    if request.method == "POST" and "submit" in request.POST and (ask := reauthenticate_or_none(request)):
        return ask
    data = request.POST or None
    if request.method == "GET":
        data, _restored = restored_form_data(request)
        if data is not None:
            messages.info(request, _("Confirmed. Your draft is as you left it: check it and submit."))
    form = forms.ApplicationForm(data, instance=application, prefix="app")
    formset = forms.FixtureFormSet(data, instance=application, prefix="fixtures")
    status = 200
    draft_saved = False
    if request.method == "POST":
        status = 400
        if form.is_valid() and formset.is_valid():
            fields = {name: form.cleaned_data[name] for name in form.Meta.fields}
            try:
                services.application_update(
                    application=application,
                    acting_user=request.user,
                    fixtures=forms.fixture_rows(formset),
                    expected_version=form.expected_version(),
                    **fields,
                )
            except StaleRecord as refusal:
                # Someone saved the draft since this page was opened: input kept, nothing overwritten.
                form.refused_as_stale(refusal)
                status = 409
            except ValidationError as error:
                show_service_errors(form, error)
                for message in error.message_dict.get("fixtures", []) if hasattr(error, "error_dict") else []:
                    formset._non_form_errors = formset.error_class([*formset.non_form_errors(), message])
            except TransitionNotAllowed as error:
                messages.error(request, str(error))
                return redirect("permits:application_detail", pk)
            else:
                if "submit" not in request.POST:
                    messages.success(request, _("Draft saved."))
                    return redirect("permits:application_detail", pk)
                if _submit(request, pk, form, formset):
                    return redirect("permits:application_detail", pk)
                draft_saved = True
    context = {"application": application, "form": form, "formset": formset, "draft_saved": draft_saved}
    return render(request, "permits/application_edit.html", context, status=status)


def _submit(request, pk, form, formset) -> bool:
    """Submit the draft just saved. Refused, each missing item is put beside its field on the same
    page (the fixture list's above the fixtures), and the draft stays saved."""
    application = found(selectors.application_detail, request.user, pk)
    try:
        services.application_submit(application=application, acting_user=request.user)
    except ValidationError as error:
        problems = (
            dict(error.message_dict) if hasattr(error, "error_dict") else {NON_FIELD_ERRORS: error.messages}
        )
        fixture_problems = problems.pop("fixtures", [])
        if fixture_problems:
            formset._non_form_errors = formset.error_class([*formset.non_form_errors(), *fixture_problems])
        if problems:
            show_service_errors(form, ValidationError(problems))
        return False
    messages.success(
        request, f"Application {application.reference} submitted. The FOG Manager will review it (B5)."
    )
    return True


# --- The detail page and its steps ---------------------------------------------------------


# The forms of the steps that take input, in the order the page shows them; a step is offered only
# when application_actions allows it to this user now.
_OFFERED_FORMS = (
    "document",
    "respond",
    "request-information",
    "schedule-inspection",
    "record-inspection",
    "reject",
    "pay-fee",
    "waive-fee",
    "issue",
    "note",
)


def _step_forms(application, actions, bound=None, *, l5=False) -> dict:
    """The forms the page offers in this state to this user; `bound` replaces one after an error."""
    offer = {}
    for name in _OFFERED_FORMS:
        if not actions[name.replace("-", "_")]:
            continue
        if name == "issue":
            offer[name] = _issue_form(application)
        elif name in ("pay-fee", "waive-fee"):
            offer[name] = _fee_form(name, application)
        elif name == "record-inspection":
            offer[name] = forms.InspectionForm(prefix=name, initial={"inspected_on": town_today()})
        elif name == "reject":
            offer[name] = forms.RejectForm(prefix=name, l5=l5)
        else:
            offer[name] = STEP_FORMS[name](prefix=name)
    if bound is not None:
        name, form = bound
        offer[name] = form
    return offer


def _outstanding_fees(application):
    """B3: the application's fees still owed (not paid, waived or cancelled)."""
    return FeeCharge.objects.filter(
        application=application, status__in=[FeeCharge.Status.OWED, FeeCharge.Status.INVOICED], amount__gt=0
    )


def _fee_form(step, application, data=None):
    fees = _outstanding_fees(application)
    if step == "waive-fee":
        return forms.FeeWaiverForm(data, prefix=step, fees=fees)
    first = fees.first()
    initial = {"amount": first.amount if first else None, "paid_on": town_today()}
    return forms.FeePaymentForm(data, prefix=step, fees=fees, initial=initial)


def _issue_form(application, data=None):
    ruleset = ruleset_on(town_today())
    device = application.device
    previous = application.previous_permit
    kind = application.device_kind or (device.kind if device else "")
    initial = {
        "device_kind": kind,
        "device_capacity_gallons": application.device_capacity_gallons or (device.capacity_gallons if device else None),
        "device_rated_flow_gpm": application.device_rated_flow_gpm or (device.rated_flow_gpm if device else None),
        # The service's own default (E2 by kind of device), so the form proposes what issuing would do.
        "service_frequency_days": default_service_frequency(application, device_kind=kind, ruleset=ruleset) if kind else None,
        "conditions": current_conditions(previous) if previous else "",
    }  # fmt: skip
    # A4 / A5: when the sizing check finds the device wanting, the form asks for the condition on it.
    findings = device_findings(application, kind=initial["device_kind"], gallons=initial["device_capacity_gallons"],
                               gpm=initial["device_rated_flow_gpm"], ruleset=ruleset)  # fmt: skip
    if previous is not None:
        carried = carried_device_condition(previous)
        initial |= {"device_condition": carried.condition, "device_compliance_date": carried.compliance_date}
    return forms.IssueForm(
        data, prefix="issue", initial=initial, frequencies=ruleset.allowed_frequencies_days, findings=findings
    )


def _detail(request, application, *, bound=None, status=200):
    user = request.user
    actions = application_actions(user, application)
    # L5: staff are warned of revoked permits the applicant's business is associated with.
    warnings = l5_warnings(application) if user.is_program_staff else []
    context = {
        "application": application,
        "actions": actions,
        "steps": _step_forms(application, actions, bound, l5=bool(warnings)),
        "l5_warnings": warnings,
    }
    if user.is_program_staff:
        context["sizing"] = application_sizing(application, ruleset_on(town_today()))
    return render(request, "permits/application_detail.html", context, status=status)


@login_required
def application_detail(request, pk):
    return _detail(request, found(selectors.application_detail, request.user, pk))


def _run_step(name, form, application, user):
    """Call the service behind a step with the form's cleaned data; return the application."""
    data = form.cleaned_data if form is not None else {}
    if name == "submit":
        return services.application_submit(application=application, acting_user=user)
    if name == "start-review":
        return services.application_start_review(application=application, acting_user=user)
    if name == "accept":
        return services.application_accept(application=application, acting_user=user)
    if name == "withdraw":
        return services.application_withdraw(
            application=application, acting_user=user, reason="Withdrawn on the page"
        )
    if name == "document":
        services.application_add_document(
            application=application, acting_user=user, uploaded_file=data["file"], kind=data["kind"]
        )
        return application
    if name == "respond":
        files = [data["file"]] if data.get("file") else []
        return services.application_respond(
            application=application, acting_user=user, message=data["message"], files=files
        )
    if name == "note":
        services.application_add_note(application=application, acting_user=user, message=data["message"])
        return application
    if name == "request-information":
        return services.application_request_information(
            application=application, acting_user=user, message=data["message"]
        )
    if name == "schedule-inspection":
        return services.application_schedule_inspection(
            application=application, acting_user=user, scheduled_for=data["scheduled_for"]
        )
    if name == "record-inspection":
        return services.application_record_inspection(application=application, acting_user=user, **data)
    if name == "reject":
        return services.application_reject(application=application, acting_user=user, reasons=data["reasons"],
                                           deny_under_l5=bool(data.get("deny_under_l5")))  # fmt: skip
    if name == "issue":
        permit = services.permit_issue(application=application, acting_user=user, **data)
        return permit
    if name == "pay-fee":
        services.fee_record_payment(charge=data["fee"], acting_user=user, amount=data["amount"],
                                    paid_on=data["paid_on"], reference=data["reference"])  # fmt: skip
        return application
    if name == "waive-fee":
        services.fee_waive(charge=data["fee"], acting_user=user, reason=data["reason"])
        return application
    raise ValueError(name)  # pragma: no cover - the URL lists the steps


STEP_FORMS = {
    "document": forms.DocumentForm,
    "respond": forms.RespondForm,
    "note": forms.MessageForm,
    "request-information": forms.MessageForm,
    "schedule-inspection": forms.ScheduleForm,
    "record-inspection": forms.InspectionForm,
    "reject": forms.RejectForm,
}
DONE = {
    "submit": "Submitted. The FOG Manager will review the application (B5).",
    "start-review": "The application is under review.",
    "accept": "Accepted (B5). Schedule an on-site inspection, or issue the permit.",
    "withdraw": "The application is withdrawn.",
    "document": "Document attached.",
    "respond": "Your answer is sent; the review resumes.",
    "note": "Note added.",
    "request-information": "The applicant has been asked for the information, by email and letter.",
    "schedule-inspection": "Inspection scheduled.",
    "record-inspection": "Inspection recorded.",
    "reject": "Rejected; the applicant has been told the reasons.",
    "pay-fee": "Payment recorded (B3).",
    "waive-fee": "Fee waived; the reason is kept with it (B3).",
}


@login_required
@require_POST
def application_step(request, pk, step):
    application = found(selectors.application_detail, request.user, pk)
    if step not in DONE and step != "issue":
        raise Http404("No such step.")
    # The role first: a role that may never take the step is told so, not what its input lacked.
    require_role(request.user, *STEP_ROLES[step.replace("-", "_")])
    if step == "submit":
        back = reverse("permits:application_detail", args=[pk])
        if ask := reauthenticate_or_none(request, back=back):
            return ask
    form = None
    if step == "issue":
        form = _issue_form(application, request.POST)
    elif step in ("pay-fee", "waive-fee"):
        form = _fee_form(step, application, request.POST)
    elif step == "reject":  # L5's reason is read whenever sent: the service refuses it without a link
        form = forms.RejectForm(request.POST, prefix=step, l5=f"{step}-deny_under_l5" in request.POST)
    elif step in STEP_FORMS:
        form = STEP_FORMS[step](request.POST, request.FILES, prefix=step)
    if form is not None and not form.is_valid():
        return _detail(request, application, bound=(step, form), status=400)
    try:
        result = _run_step(step, form, application, request.user)
    except ValidationError as error:
        if form is None:
            for field, problems in (
                error.message_dict.items() if hasattr(error, "error_dict") else [("", error.messages)]
            ):
                for problem in problems:
                    messages.error(
                        request, f"{field.replace('_', ' ').capitalize()}: {problem}" if field else problem
                    )
            return _detail(request, found(selectors.application_detail, request.user, pk), status=400)
        show_service_errors(form, error)
        return _detail(
            request, found(selectors.application_detail, request.user, pk), bound=(step, form), status=400
        )
    except TransitionNotAllowed as error:
        messages.error(request, str(error))
        return _detail(request, found(selectors.application_detail, request.user, pk), status=409)
    if step == "issue":
        messages.success(request, f"Permit {result.number} issued; the permittee has been told.")
        return redirect("permits:permit_detail", result.pk)
    messages.success(request, DONE[step])
    return redirect(reverse("permits:application_detail", args=[pk]))
