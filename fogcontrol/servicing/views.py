"""Servicing pages. Thin: read through selectors (scoped: outside the scope is 404), write through
services, show refusals beside the field."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from fogcontrol.core.errors import StateConflict as Conflict
from fogcontrol.core.exports import Export
from fogcontrol.core.forms import show_service_errors
from fogcontrol.core.fresh_auth import reauthenticate_or_none, restored_form_data
from fogcontrol.core.permissions import require_role
from fogcontrol.core.views import filtered_rows, found, live_filters, paginate, render_list, staff_only
from fogcontrol.program.selectors import program_read_once
from fogcontrol.servicing import certification, exports, imports, selectors, services
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.filters import (
    FlagFilter,
    FrequencyRequestFilter,
    ManifestFilter,
    RequirementFilter,
    ServiceStatusFilter,
)
from fogcontrol.servicing.forms import (
    CorrectionForm,
    DecisionForm,
    FlagReviewForm,
    FrequencyChangeForm,
    FrequencyRequestForm,
    ImportForm,
    ManifestForm,
    ReadingForm,
    RequirementCloseForm,
)
from fogcontrol.servicing.models import Manifest
from fogcontrol.servicing.permissions import (
    FREQUENCY_SETTERS,
    MANIFEST_SUBMITTERS,
    STEP_ROLES,
    can_request_frequency,
    can_review,
    can_set_frequency,
    can_submit_manifest,
)
from fogcontrol.servicing.services.frequency import frequency_assessment, stored_advice
from fogcontrol.servicing.services.manifests import can_correct

PAGE_SIZE = 50


@login_required
def home(request):
    """The service status of every device the user may see, with counts and filters."""
    user = request.user
    status_filter = ServiceStatusFilter(request.GET, queryset=selectors.service_status_list(user))
    live_filters(status_filter, request.path)
    page = paginate(request, status_filter.qs, PAGE_SIZE)
    context = {
        "filter": status_filter,
        "page": page,
        "counts": selectors.status_counts(user),
    }
    export = Export("service-status", exports.STATUS_COLUMNS, status_filter.qs)
    return render_list(request, "servicing/home.html", context, export=export)


@login_required
def manifest_list(request):
    manifest_filter = ManifestFilter(request.GET, queryset=selectors.manifest_list(request.user))
    live_filters(manifest_filter, request.path)
    context = {
        "filter": manifest_filter,
        "page": paginate(request, selectors.manifest_list_page(manifest_filter.qs), PAGE_SIZE),
    }
    export = Export("manifests", exports.MANIFEST_COLUMNS, manifest_filter.qs)
    return render_list(request, "servicing/manifest_list.html", context, export=export)


def _restored(request):
    """What the form held before its user confirmed who they are (None: an empty form)."""
    if request.method != "GET":
        return None
    data, had_files = restored_form_data(request)
    if data is not None:
        note = " " + _("Attach the files again: a browser cannot be given them back.") if had_files else ""
        messages.info(request, _("Confirmed. Your form is as you left it: check it and submit.") + note)
    return data


@login_required
def manifest_new(request):
    user = request.user
    require_role(user, MANIFEST_SUBMITTERS, "Your role may not submit manifests.")
    # Staff certify on the hauler's or the FSE's behalf: only just authenticated (core/fresh_auth.py).
    if request.method == "POST" and (ask := reauthenticate_or_none(request)):
        return ask
    initial = {}
    if request.GET.get("device"):
        initial["device"] = request.GET["device"]
    form = ManifestForm(request.POST or _restored(request), request.FILES or None, user=user, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            manifest = services.manifest_submit(
                acting_user=user,
                submission=form.to_submission(),
                channel=Manifest.Channel.PORTAL,
                raw=form.raw(),
            )
        except ValidationError as error:
            show_service_errors(form, error)
        else:
            flagged = len(manifest.flag_list)
            note = (
                " " + ngettext(
                    "%(count)d point will be reviewed by Town staff.",
                    "%(count)d points will be reviewed by Town staff.",
                    flagged,
                ) % {"count": flagged}
                if flagged
                else ""
            )  # fmt: skip
            received = _("Manifest %(number)s received.") % {"number": manifest.manifest_number}
            messages.success(request, received + note)
            return redirect("servicing:manifest_detail", pk=manifest.pk)
    return render(
        request,
        "servicing/manifest_form.html",
        {
            "form": form,
            "certification_text": form.certification_shown,
            "certification_language": form.certification_language_shown,
            "vehicles": form.vehicles,
        },
    )


@login_required
def manifest_detail(request, pk):
    manifest = found(selectors.manifest_detail, request.user, pk)
    return render(
        request,
        "servicing/manifest_detail.html",
        {
            "manifest": manifest,
            "can_correct": can_correct(request.user, manifest) and not manifest.corrections.all(),
            "can_review": can_review(request.user),
        },
    )


@login_required
def manifest_correct(request, pk):
    user = request.user
    manifest = found(selectors.manifest_detail, user, pk)
    if not can_correct(user, manifest):
        raise PermissionDenied(
            "Only the hauler that filed this manifest, its submitter, or staff may correct it."
        )
    if request.method == "POST" and (ask := reauthenticate_or_none(request)):
        return ask
    initial = {
        "device": manifest.device_id,
        "establishment": manifest.establishment_id,
        "hauler": manifest.hauler_id,
        "hauler_other": "" if manifest.hauler_id else manifest.hauler_name,
        "manifest_number": manifest.manifest_number,
        "serviced_at": manifest.serviced_at,
        "full_pumpout": manifest.full_pumpout,
        "baffles_cleaned": manifest.baffles_cleaned,
        "fog_depth_in": manifest.fog_depth_in,
        "solids_depth_in": manifest.solids_depth_in,
        "gallons_removed": manifest.gallons_removed,
        "driver_name": manifest.driver_name,
        "vehicle_plate": manifest.vehicle_plate,
        "leak_observed": manifest.leak_observed,
        "damaged_baffles": manifest.damaged_baffles,
        "damaged_tees": manifest.damaged_tees,
        "condition_notes": manifest.condition_notes,
        "receiving_facility": manifest.receiving_facility_id,
        "delivered_on": manifest.delivered_on,
    }
    form = CorrectionForm(
        request.POST or _restored(request),
        request.FILES or None,
        user=user,
        initial=initial,
        correcting=manifest,
    )
    if request.method == "POST" and form.is_valid():
        try:
            correction = services.manifest_correct(
                manifest=manifest,
                acting_user=user,
                submission=form.to_submission(),
                reason=form.cleaned_data["reason"],
                withdraw=form.cleaned_data["withdraw"],
                channel=Manifest.Channel.PORTAL,
                raw=form.raw(),
            )
        except ValidationError as error:
            show_service_errors(form, error)
        except Conflict as error:
            form.add_error(None, str(error))
        else:
            messages.success(
                request,
                _("Correction filed; manifest %(number)s is kept as it was.")
                % {"number": manifest.manifest_number},
            )
            return redirect("servicing:manifest_detail", pk=correction.pk)
    return render(
        request,
        "servicing/manifest_form.html",
        {
            "form": form,
            "correcting": manifest,
            "certification_text": form.certification_shown,
            "certification_language": form.certification_language_shown,
            "vehicles": form.vehicles,
        },
    )


@login_required
def certification_page(request):
    # Issue 18: each version in the reader's language (English where a version has no translation).
    language = certification.language_shown(get_language())
    texts = [
        (version, certification.certification_text(version, language) or text,
         language if certification.certification_text(version, language) else certification.ENGLISH)
        for version, text in sorted(certification.TEXTS.items(), reverse=True)
    ]  # fmt: skip
    return render(request, "servicing/certification.html", {"texts": texts})


# --- CSV imports -------------------------------------------------------------------------------


@login_required
def import_list(request):
    user = request.user
    require_role(user, MANIFEST_SUBMITTERS, "Your role may not submit manifests.")
    # Each row of a real import is a manifest certified on its hauler's behalf (a dry run signs nothing).
    if request.method == "POST" and not request.POST.get("dry_run"):
        if ask := reauthenticate_or_none(request):
            return ask
    _restored(request)  # the file cannot come back: the message asks for it again
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            record = imports.manifest_import_create(
                acting_user=user, upload=form.cleaned_data["file"], dry_run=form.cleaned_data["dry_run"]
            )
        except ValidationError as error:
            show_service_errors(form, error)
        else:
            imports.manifest_import_enqueue(record)
            return redirect("servicing:import_detail", pk=record.pk)
    rows = selectors.imports_visible_to(user)
    return render_list(
        request,
        "servicing/import_list.html",
        {"form": form, "page": paginate(request, rows, PAGE_SIZE), "columns": imports.COLUMNS},
        status=400 if form.is_bound and form.errors else 200,  # a refused file: 400, as every page
        export=Export("manifest-imports", exports.IMPORT_COLUMNS, rows),
    )


@login_required
def import_detail(request, pk):
    record = found(selectors.imports_visible_to(request.user).get, pk=pk)
    problems = paginate(request, record.problems.all(), PAGE_SIZE)
    context = {"record": record, "problems": problems}
    if request.htmx:
        return render(request, "servicing/import_detail.html#import-status", context)
    return render(request, "servicing/import_detail.html", context)


@login_required
def import_template(request):
    response = HttpResponse(imports.template_csv(), content_type="text/csv")
    response["Content-Disposition"] = 'attachment; filename="manifests-template.csv"'
    return response


# --- device history, frequency, readings -------------------------------------------------------


def _device_page(request, pk, *, frequency_form=None, request_form=None, reading_form=None, status=200):
    user = request.user
    history = found(selectors.device_history, user, pk)
    ctx = ProgramContext()
    ruleset = ctx.ruleset()
    allowed = sorted(ruleset.allowed_frequencies_days)
    snap = selectors.compliance_of(history.device, on=ctx.today(), ctx=ctx, history=history)
    explanation = snap.status.explanation
    if snap.recommendation is not None:
        explanation = explanation.plus(snap.recommendation.explanation)
    context = {
        "history": history,
        "device": history.device,
        "state": getattr(history.device, "service_state", None),
        "snap": snap,
        "explanation": explanation,
        "chart": selectors.chart_svg_points(history),
        "can_set_frequency": can_set_frequency(user),
        "can_request_frequency": can_request_frequency(user) and not user.is_program_staff,
        "can_record_reading": can_review(user) or can_request_frequency(user),
        "can_submit": can_submit_manifest(user),
        "frequency_form": frequency_form,
        "request_form": request_form or FrequencyRequestForm(allowed=allowed),
        "reading_form": reading_form or ReadingForm(initial={"taken_on": ctx.today()}),
        "requests": selectors.frequency_requests_of_device(user, history.device),
    }
    return render(request, "servicing/device_history.html", context, status=status)


@login_required
@program_read_once
def device_history(request, pk):
    return _device_page(request, pk)


def _back(request, fallback: str, **kwargs):
    """Back to the page the form was embedded in (the device's or the permit's), if it is ours."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return redirect(target)
    return redirect(fallback, **kwargs)


@login_required
@require_POST
def device_frequency(request, pk):
    """E1, B7: the one view that proposes a change of a device's frequency, from any page that embeds
    the frequency card; a refusal is shown beside the field on the device's page."""
    device = found(selectors.device_for_servicing, request.user, pk)
    require_role(request.user, *STEP_ROLES["set_frequency"])
    allowed = sorted(ProgramContext().ruleset().allowed_frequencies_days)
    form = FrequencyChangeForm(request.POST, allowed=allowed)
    status = 400
    if form.is_valid():
        try:
            change = services.frequency_change(device=device, acting_user=request.user, **form.cleaned_data)
        except ValidationError as error:
            show_service_errors(form, error)
        except PermissionDenied as error:
            form.add_error(None, str(error))
            status = 403
        else:
            told = ", ".join(notice.addressee_name for notice in change.notices.all())
            replaced = (
                " It replaces the change that was pending, which is withdrawn."
                if change.replaces.exists()
                else ""
            )
            messages.success(
                request,
                f"Frequency set to every {change.to_days} days from {change.effective_on:%Y-%m-%d} for "
                f"{device.identifier} (B7 notice to {told}).{replaced}",
            )
            return _back(request, "servicing:device_history", pk=pk)
    return _device_page(request, pk, frequency_form=form, status=status)


@login_required
@require_POST
def frequency_change_withdraw(request, pk):
    """B7: the FOG Manager withdraws a pending change; everyone told is told why."""
    change = found(selectors.frequency_change_detail, request.user, pk)
    require_role(request.user, *STEP_ROLES["set_frequency"])
    try:
        services.frequency_change_withdraw(
            change=change, acting_user=request.user, reason=request.POST.get("reason", "")
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    except (PermissionDenied, Conflict) as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request, f"The change to every {change.to_days} days is withdrawn; everyone told is told."
        )
    return _back(request, "servicing:device_history", pk=change.device_id)


@login_required
@require_POST
def device_frequency_request(request, pk):
    device = found(selectors.device_for_servicing, request.user, pk)
    require_role(request.user, *STEP_ROLES["request_frequency"])
    allowed = sorted(ProgramContext().ruleset().allowed_frequencies_days)
    form = FrequencyRequestForm(request.POST, allowed=allowed)
    if form.is_valid():
        try:
            services.frequency_request_file(device=device, acting_user=request.user, **form.cleaned_data)
        except ValidationError as error:
            show_service_errors(form, error)
        except Conflict as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, _("Your request was filed; the FOG Manager will decide (E5)."))
            return redirect("servicing:device_history", pk=pk)
    return _device_page(request, pk, request_form=form, status=400)


@login_required
@require_POST
def device_reading(request, pk):
    device = found(selectors.device_for_servicing, request.user, pk)
    require_role(request.user, *STEP_ROLES["review"])
    form = ReadingForm(request.POST)
    if form.is_valid():
        try:
            services.reading_record(device=device, acting_user=request.user, **form.cleaned_data)
        except ValidationError as error:
            show_service_errors(form, error)
        else:
            messages.success(request, _("Reading recorded."))
            return redirect("servicing:device_history", pk=pk)
    return _device_page(request, pk, reading_form=form, status=400)


# --- staff queues ------------------------------------------------------------------------------


@login_required
def flag_list(request):
    staff_only(request.user)
    params = request.GET.copy()
    params.setdefault("review", "open")
    flag_filter = FlagFilter(params, queryset=selectors.flags_to_review(request.user))
    live_filters(flag_filter, request.path)
    return render_list(
        request,
        "servicing/flag_list.html",
        {
            "filter": flag_filter,
            "page": paginate(request, flag_filter.qs, PAGE_SIZE),
            "form": FlagReviewForm(),
            "can_review": can_review(request.user),
        },
        export=Export("manifest-flags", exports.FLAG_COLUMNS, flag_filter.qs),
    )


@login_required
@require_POST
def flag_review(request, pk):
    flag = found(selectors.flags_to_review(request.user).get, pk=pk)
    require_role(request.user, *STEP_ROLES["review"])
    form = FlagReviewForm(request.POST)
    error = ""
    if form.is_valid():
        try:
            flag = services.flag_review(flag=flag, acting_user=request.user, **form.cleaned_data)
        except ValidationError as exc:
            error = " ".join(exc.messages)
        except Conflict as exc:
            error = str(exc)
    else:
        error = "Choose cleared or referred."
    context = {"flag": flag, "form": form, "error": error, "can_review": can_review(request.user)}
    if request.htmx:
        return render(request, "servicing/flag_list.html#flag-row", context, status=400 if error else 200)
    if error:
        messages.error(request, error)
    return redirect("servicing:flag_list")


@login_required
def requirement_list(request):
    params = request.GET.copy()
    params.setdefault("status", "open")
    requirement_filter = RequirementFilter(params, queryset=selectors.requirements_visible_to(request.user))
    live_filters(requirement_filter, request.path)
    return render_list(
        request,
        "servicing/requirement_list.html",
        {
            "filter": requirement_filter,
            "page": paginate(request, requirement_filter.qs, PAGE_SIZE),
            "form": RequirementCloseForm(),
            "can_review": can_review(request.user),
        },
        export=Export("service-requirements", exports.REQUIREMENT_COLUMNS, requirement_filter.qs),
    )


@login_required
@require_POST
def requirement_close(request, pk):
    requirement = found(selectors.requirements_visible_to(request.user).get, pk=pk)
    require_role(request.user, *STEP_ROLES["review"])
    form = RequirementCloseForm(request.POST)
    if form.is_valid():
        try:
            services.requirement_close(requirement=requirement, acting_user=request.user, **form.cleaned_data)
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        except Conflict as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Requirement closed."))
    else:
        messages.error(request, _("Say why the requirement is closed."))
    return redirect("servicing:requirement_list")


@login_required
def request_list(request):
    filterset, rows = filtered_rows(
        FrequencyRequestFilter, request, selectors.frequency_requests_visible_to(request.user)
    )
    export = Export("frequency-requests", exports.REQUEST_COLUMNS, rows)
    return render_list(
        request,
        "servicing/request_list.html",
        {"filter": filterset, "page": paginate(request, rows, PAGE_SIZE)},
        export=export,
    )


@login_required
def request_detail(request, pk):
    user = request.user
    filed = found(selectors.frequency_requests_visible_to(user).get, pk=pk)
    form = DecisionForm(request.POST or None)
    if request.method == "POST":
        require_role(user, FREQUENCY_SETTERS, "Only the FOG Manager decides frequency requests (E5).")
        if form.is_valid():
            try:
                services.frequency_request_decide(request=filed, acting_user=user, **form.cleaned_data)
            except ValidationError as error:
                show_service_errors(form, error)
            except Conflict as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("Decision recorded."))
                return redirect("servicing:request_detail", pk=pk)
    assessment = None
    if filed.status == filed.Status.PENDING:
        assessment = frequency_assessment(
            device=filed.device, requested_days=filed.requested_days, ctx=ProgramContext()
        )
    return render(
        request,
        "servicing/request_detail.html",
        {
            "filed": filed,
            "form": form,
            "assessment": assessment,
            "recorded_advice": stored_advice(filed.decision_assessment or filed.assessment),
            "can_decide": can_set_frequency(user),
        },
    )
