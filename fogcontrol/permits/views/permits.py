"""Permit pages: the portal and staff overview, permits and their PDF, renewals (B6), changes (B7, B8),
FSEs without a permit (B1), remodel notices (G1, G2) and the fee schedule.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from fogcontrol.core.exports import Export
from fogcontrol.core.forms import show_service_errors
from fogcontrol.core.permissions import has_role, require_role
from fogcontrol.core.roles import Role
from fogcontrol.core.views import filtered_rows, found, live_filters, paginate, render_list, staff_only
from fogcontrol.permits import exports, forms, selectors, services
from fogcontrol.permits.actions import permit_actions, remodel_actions
from fogcontrol.permits.filters import PermitFilter
from fogcontrol.permits.pdf import LANGUAGES, notice_language, notice_pdf, permit_language, permit_pdf
from fogcontrol.permits.roles import DECISION_RECORDERS, FEE_EDITORS, STEP_ROLES
from fogcontrol.permits.services.common import DECIDERS, REVIEWERS, town_contacts
from fogcontrol.permits.states import TransitionNotAllowed
from fogcontrol.permits.views.applications import PER_PAGE, _applicant_establishments
from fogcontrol.program.selectors import program_read_once, ruleset_on, town_today


@login_required
def home(request):
    """Staff: the work queue and the permits at a glance. Everyone else: their portal (B1, B6)."""
    user = request.user
    today = town_today()
    if user.is_program_staff:
        labels = dict(selectors.ApplicationStatus.choices)
        queue = [
            (status, labels[status], n) for status, n in selectors.application_queue_counts(user).items()
        ]
        context = {
            "queue": queue,
            "counts": selectors.permit_counts(user, on=today),
            "can_apply": has_role(user, STEP_ROLES["apply"][0]),
        }
        return render(request, "permits/home_staff.html", context)
    context = {
        "entries": selectors.permit_summary_for(user, on=today),
        "can_apply": _applicant_establishments(user).exists(),
        "remodel_notices": selectors.remodel_notices_visible_to(user)[:10],
        "notices": selectors.notices_visible_to(user)[:10],
    }
    return render(request, "permits/portal.html", context)


@login_required
# The Town's today read once, from the profile the middleware read (issue 16).
@program_read_once
def permit_list(request):
    queryset = selectors.permit_list(request.user).order_by("-first_issued_on", "-pk")
    filterset, rows = filtered_rows(PermitFilter, request, queryset)
    live_filters(filterset, request.path)
    page = paginate(request, selectors.permit_list_page(rows), PER_PAGE)
    today = town_today()
    context = {"filter": filterset, "page": page, "rows": page.object_list, "today": today}
    export = Export("permits", exports.permit_columns(today), rows)
    return render_list(request, "permits/permit_list.html", context, export=export)


def _permit_context(request, permit, **extra):
    user = request.user
    today = town_today()
    ruleset = ruleset_on(today)
    is_applicant = has_role(user, REVIEWERS) or permit.establishment.users.filter(pk=user.pk).exists()
    versions = list(permit.versions.all())
    open_application = selectors.open_application_for(permit.establishment)
    context = {
        "permit": permit,
        "version": next((v for v in versions if v.number == permit.version_number), None),
        "standing": selectors.permit_standing(permit, today, ruleset),
        "expiry": selectors.permit_expiry_explanation(permit),
        "actions": permit_actions(user, permit, open_application=open_application, ruleset=ruleset),
        "may_withdraw_changes": has_role(user, DECIDERS),
        "is_decider": has_role(user, DECIDERS),
        "is_applicant": is_applicant,
        "open_application": open_application,
        # L, M: the orders are the permittee's and staff's business, not a hauler's.
        "show_orders": user.is_program_staff or user.role in (Role.FSE, Role.PROPERTY_OWNER),
        "can_decide_orders": has_role(user, DECISION_RECORDERS),
        # Conditions set beside the version's terms (a reporting requirement made a permit condition).
        "standing_conditions": selectors.permit_conditions_in_force(permit, on=today),
    }
    context.update(extra)
    return context


@login_required
def permit_detail(request, pk):
    permit = found(selectors.permit_detail, request.user, pk)
    return render(request, "permits/permit_detail.html", _permit_context(request, permit))


@login_required
def permit_pdf_view(request, pk, number=None):
    """The permit as a PDF: the version in force, or an older one (kept, B7); in English or Spanish
    (``?language=``; by default the user's language, or for staff the FSE contact's)."""
    permit = found(selectors.permit_detail, request.user, pk)
    version = found(selectors.permit_version_detail, request.user, permit.pk, number or permit.version_number)
    language = request.GET.get("language")
    if language not in LANGUAGES:
        language = permit_language(request.user, permit.establishment)
    response = HttpResponse(permit_pdf(version, language=language), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{permit.number}-v{version.number}.pdf"'
    return response


@login_required
@require_POST
def permit_renew(request, pk):
    """B6: open the renewal application, pre-filled from the last one."""
    permit = found(selectors.permit_detail, request.user, pk)
    try:
        application = services.renewal_application_start(permit=permit, acting_user=request.user)
    except (ValidationError, TransitionNotAllowed) as error:
        messages.error(request, " ".join(getattr(error, "messages", [str(error)])))
        return render(request, "permits/permit_detail.html", _permit_context(request, permit), status=409)
    messages.success(request, f"Renewal {application.reference} opened, pre-filled from your last application. "
                              "Check it and submit it.")  # fmt: skip
    return redirect("permits:application_edit", application.pk)


@login_required
def permit_change(request, pk):
    """B8: a change of ownership, food types or operations opens a new application."""
    permit = found(selectors.permit_detail, request.user, pk)
    require_role(request.user, *STEP_ROLES["change"])
    form = forms.ChangeForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                application = services.change_application_start(
                    permit=permit, acting_user=request.user, **form.cleaned_data
                )
            except ValidationError as error:
                show_service_errors(form, error)
            except TransitionNotAllowed as error:
                form.add_error(None, str(error))
                status = 409
            else:
                messages.success(
                    request, f"Application {application.reference} opened (B8). Check it and submit it."
                )
                return redirect("permits:application_edit", application.pk)
    return render(request, "permits/form.html", {
        "form": form, "title": f"Change of ownership, food types or operations — {permit.number}",
        "intro": "A change of ownership, food types or operations that may increase FOG needs a new application, "
        "fee and permit (B8). A change of service frequency approved by the FOG Manager does not.",
        "submit": "Open the new application", "back": permit,
    }, status=status)  # fmt: skip


@login_required
def permit_modify(request, pk):
    """B7: the FOG Manager proposes a change of the permit's conditions; the permittee is told. The
    service frequency is changed on the device's frequency card (embedded in the permit's page)."""
    permit = found(selectors.permit_detail, request.user, pk)
    require_role(request.user, DECIDERS, "Only the FOG Manager may change the terms of a permit.")
    ruleset = ruleset_on(town_today())
    form = forms.ModifyForm(request.POST or None, notice_days=ruleset.frequency_change_notice_days)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                change = services.permit_modification_propose(
                    permit=permit, acting_user=request.user, changes=form.changes(), reason=data["reason"],
                    notice_date=data["notice_date"], effective_on=data["effective_on"],
                    compliance_schedule=data["compliance_schedule"],
                    backdating_reason=data["backdating_reason"], mailing_record=data["mailing_record"],
                )  # fmt: skip
            except ValidationError as error:
                show_service_errors(form, error)
            except PermissionDenied as error:
                form.add_error(None, str(error))
                status = 403
            except TransitionNotAllowed as error:
                form.add_error(None, str(error))
                status = 409
            else:
                messages.success(request, f"The permittee has been told; the change takes effect on "
                                          f"{change.effective_on:%B %-d, %Y} (B7).")  # fmt: skip
                return redirect("permits:permit_detail", permit.pk)
    return render(request, "permits/form.html", {
        "form": form, "title": f"Change the conditions of {permit.number}",
        "intro": f"The permittee is told now and the change takes effect no sooner than "
        f"{ruleset.frequency_change_notice_days} days after the notice (B7). The permit is then reissued "
        "as a new version; the old one is kept. The service frequency belongs to the device: change it on "
        "the device's frequency card on the permit's page (E1, A2).", "submit": "Send the notice", "back": permit,
    }, status=status)  # fmt: skip


STATUS_ACTIONS = {
    "suspend": services.permit_suspend,
    "reinstate": services.permit_reinstate,
    "revoke": services.permit_revoke,
}


@login_required
@require_POST
def permit_status(request, pk, change):
    """L5, M1: apply a recorded order (suspend, revoke, reinstate). Never in one click: without an
    order the service refuses, naming the process the chapter requires (409)."""
    permit = found(selectors.permit_detail, request.user, pk)
    if change not in STATUS_ACTIONS:
        raise Http404("No such action.")
    require_role(request.user, *STEP_ROLES["apply_order"])
    form = forms.OrderApplyForm(request.POST, prefix="status", orders=permit.orders.all())
    if not form.is_valid():
        messages.error(request, " ".join(str(e) for errors in form.errors.values() for e in errors))
        return render(request, "permits/permit_detail.html", _permit_context(request, permit), status=400)
    try:
        STATUS_ACTIONS[change](
            permit=permit, acting_user=request.user, order=form.cleaned_data["order"],
            reason=form.cleaned_data["reason"],
        )  # fmt: skip
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return render(request, "permits/permit_detail.html", _permit_context(request, permit), status=400)
    except TransitionNotAllowed as error:
        messages.error(request, str(error))
        return render(request, "permits/permit_detail.html", _permit_context(request, permit), status=409)
    permit.refresh_from_db()
    messages.success(request, f"Permit {permit.number} is now {permit.get_status_display().lower()}, by order "
                              f"{form.cleaned_data['order'].reference}.")  # fmt: skip
    return redirect("permits:permit_detail", pk)


@login_required
@require_POST
def modification_withdraw(request, pk):
    modification = found(lambda user, key: selectors.modification_list(user).get(pk=key), request.user, pk)
    try:
        services.permit_modification_withdraw(
            modification=modification, acting_user=request.user, reason=request.POST.get("reason", "")
        )
    except (ValidationError, TransitionNotAllowed) as error:
        messages.error(request, " ".join(getattr(error, "messages", [str(error)])))
    else:
        messages.success(request, _("The proposed change is withdrawn."))
    return redirect("permits:permit_detail", modification.permit_id)


@login_required
def notice_letter(request, pk):
    notice = found(lambda user, key: selectors.notices_visible_to(user).get(pk=key), request.user, pk)
    response = HttpResponse(
        notice_pdf(
            notice,
            town_contacts(),
            language=notice_language(request.user, notice, request.GET.get("language")),
        ),
        content_type="application/pdf",
    )
    response["Content-Disposition"] = f'inline; filename="notice-{notice.pk}.pdf"'
    return response


# --- Staff lists ---------------------------------------------------------------------------


@login_required
def renewal_list(request):
    """B6: permits whose term ends within the chosen window (or has ended), and whether renewal is open."""
    staff_only(request.user)
    today = town_today()
    default = ruleset_on(today).permit_renewal_window_days
    try:
        within = int(request.GET.get("within") or default)
    except ValueError:
        within = default
        messages.error(request, _("The window must be a whole number of days; showing the default."))
    within = max(0, min(within, 730))
    rows = selectors.renewal_list(request.user, on=today, within_days=within)
    page = paginate(request, rows, PER_PAGE)
    context = {"page": page, "rows": page.object_list, "within": within, "today": today}
    export = Export("renewals-due", exports.RENEWAL_COLUMNS, rows)
    return render_list(request, "permits/renewal_list.html", context, export=export)


@login_required
def without_permit(request):
    """B1: active FSEs with no permit in force today: non-compliant."""
    staff_only(request.user)
    today = town_today()
    rows = selectors.establishments_without_permit(request.user, on=today)
    page = paginate(request, rows, PER_PAGE)
    context = {"page": page, "rows": page.object_list, "today": today}
    export = Export("without-permit", exports.WITHOUT_PERMIT_COLUMNS, rows)
    return render_list(request, "permits/without_permit.html", context, export=export)


# --- Remodel notices (G1, G2) --------------------------------------------------------------


@login_required
def remodel_list(request):
    rows = selectors.remodel_notices_visible_to(request.user).order_by("-filed_on", "-pk")
    page = paginate(request, rows, PER_PAGE)
    can_file = _applicant_establishments(request.user).exists()
    context = {"page": page, "rows": page.object_list, "can_file": can_file}
    export = Export("remodel-notices", exports.REMODEL_COLUMNS, rows)
    return render_list(request, "permits/remodel_list.html", context, export=export)


@login_required
def remodel_new(request):
    require_role(request.user, *STEP_ROLES["remodel"])
    establishments = _applicant_establishments(request.user)
    form = forms.RemodelForm(request.POST or None, establishments=establishments)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                notice = services.remodel_notice_file(acting_user=request.user, **form.cleaned_data)
            except ValidationError as error:
                show_service_errors(form, error)
            else:
                if notice.late:
                    messages.warning(request, _("Notice %(reference)s filed, but late: G1 asks for notice by "
                                                "%(day)s.") % {"reference": notice.reference,
                                                               "day": date_format(notice.latest_notice_on, _("F j, Y"))})  # fmt: skip
                else:
                    messages.success(
                        request,
                        _("Notice %(reference)s filed in time (G1). Submit the plans next (G2).")
                        % {"reference": notice.reference},
                    )
                return redirect("permits:remodel_detail", notice.pk)
    return render(request, "permits/form.html", {
        "form": form, "title": _("Notice of expansion, remodel or process change"),
        "intro": _("Give the FOG Manager written notice at least %(days)s days before the work starts (G1). "
                   "The change needs plan review and its fee before any work (G2).")
        % {"days": ruleset_on(town_today()).remodel_notice_days},
        "submit": _("File the notice"),
    }, status=status)  # fmt: skip


@login_required
def remodel_detail(request, pk):
    notice = found(lambda user, key: selectors.remodel_notices_visible_to(user).get(pk=key), request.user, pk)
    plans_form = forms.PlansForm(prefix="plans")
    decide_form = forms.DecideForm(prefix="decide")
    status = 200
    if request.method == "POST":
        status = 400
        step = request.POST.get("step")
        try:
            if step == "plans":
                plans_form = forms.PlansForm(request.POST, request.FILES, prefix="plans")
                if plans_form.is_valid():
                    services.remodel_plans_submit(
                        notice=notice, acting_user=request.user, **plans_form.cleaned_data
                    )
                    messages.success(request, _("Plans received for review (G2)."))
                    return redirect("permits:remodel_detail", pk)
            elif step == "decide":
                decide_form = forms.DecideForm(request.POST, prefix="decide")
                if decide_form.is_valid():
                    services.remodel_plan_review_decide(
                        notice=notice, acting_user=request.user, **decide_form.cleaned_data
                    )
                    messages.success(request, _("Plan review decided."))
                    return redirect("permits:remodel_detail", pk)
        except ValidationError as error:
            show_service_errors(plans_form if step == "plans" else decide_form, error)
        except TransitionNotAllowed as error:
            messages.error(request, str(error))
            status = 409
    actions = remodel_actions(request.user, notice)
    context = {
        "notice": notice,
        "plans_form": plans_form if actions["plans"] else None,
        "decide_form": decide_form if actions["decide"] else None,
    }
    return render(request, "permits/remodel_detail.html", context, status=status)


# --- Fee schedule --------------------------------------------------------------------------


@login_required
def fee_schedules(request):
    """The Town's fee schedule: a public Council resolution, so every signed-in user reads it (the
    API's /api/v1/fee-schedules/ too); only the FOG Manager records a new version."""
    can_edit = has_role(request.user, FEE_EDITORS)
    form = forms.FeeScheduleForm(request.POST or None) if can_edit else None
    status = 200
    if request.method == "POST":
        if not can_edit:
            raise PermissionDenied("Only the FOG Manager may set fees.")
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                services.fee_schedule_create(
                    acting_user=request.user, effective_from=data["effective_from"], label=data["label"],
                    resolution=data["resolution"], notes=data["notes"], amounts=form.amounts(),
                )  # fmt: skip
            except ValidationError as error:
                show_service_errors(form, error)
            else:
                messages.success(request, _("Fee schedule recorded. Earlier fees stay as assessed."))
                return redirect("permits:fee_schedules")
    schedules = selectors.fee_schedules_visible_to(request.user)
    today = town_today()
    current = next((s for s in schedules if s.effective_from <= today), None)
    return render(request, "permits/fee_schedules.html", {"schedules": schedules, "current": current, "form": form},
                  status=status)  # fmt: skip
