"""Spill pages: the list (filters, the program's map of the matching spills, drawn on the server:
nothing fetched from elsewhere, and the coordinates of each spill), a spill with its linked FSEs and the Town's
costs, the forms to record them; an FSE's spill notices (J1) with the written report's due date
shown at once (J2) and the written report form. Thin: each calls one selector or service."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from fogcontrol.core.errors import StateConflict
from fogcontrol.core.exports import Export
from fogcontrol.core.files import download
from fogcontrol.core.forms import show_service_errors
from fogcontrol.core.permissions import has_role, require_role
from fogcontrol.core.views import filtered_rows, found, live_filters, paginate, render_list
from fogcontrol.spills import exports, selectors, services
from fogcontrol.spills.filters import SpillFilter, SpillReportFilter
from fogcontrol.spills.forms import CostForm, LinkForm, PhotoForm, ReportForm, SpillForm, WrittenReportForm
from fogcontrol.spills.maps import LIST_LIMIT, detail_points, list_points
from fogcontrol.spills.matching import address_candidates
from fogcontrol.spills.roles import REPORTERS, SPILL_RECORDERS

PER_PAGE = 50


@login_required
def spill_list(request):
    """Spills the user may see, newest first, with filters; the map of the matching spills (one
    query), each with its place and coordinates."""
    filterset, rows = filtered_rows(SpillFilter, request, selectors.spill_list(request.user))
    live_filters(filterset, request.path)
    page = paginate(request, rows, PER_PAGE)
    context = {
        "filter": filterset,
        "page": page,
        "map_points": list_points(rows),
        "map_limit": LIST_LIMIT,
        "can_record": has_role(request.user, SPILL_RECORDERS),
    }
    return render_list(
        request, "spills/spill_list.html", context, export=Export("spills", exports.SPILL_COLUMNS, rows)
    )


@login_required
def spill_new(request):
    require_role(request.user, SPILL_RECORDERS, "Only the FOG Manager and inspectors record spills.")
    form = SpillForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            spill = services.spill_record(acting_user=request.user, **form.cleaned_data)
        except ValidationError as error:
            show_service_errors(form, error)
        else:
            messages.success(request, f"Spill {spill.pk} recorded: {spill.get_category_display()}.")
            return redirect("spills:detail", spill.pk)
    return render(request, "spills/spill_form.html", {"form": form}, status=400 if form.errors else 200)


def _detail_context(request, spill, **forms):
    establishments = selectors.linkable_establishments(request.user)
    can_record = has_role(request.user, SPILL_RECORDERS)
    context = {
        "spill": spill,
        "map_points": detail_points(spill),
        "category": services.derive_category(spill),
        "costs": [
            (cost, services.cost_deadline(cost.kind, cost.invoiced_on))
            for cost in selectors.spill_costs(request.user, spill)
        ],
        "can_record": can_record,
        "reports": spill.reports.all(),
        "photos": spill.photos.all(),
    }
    if can_record:
        context["link_form"] = forms.get("link_form") or LinkForm(establishments=establishments)
        context["cost_form"] = forms.get("cost_form") or CostForm(establishments=establishments)
        context["candidates"] = address_candidates(spill, establishments)
        context["photo_form"] = forms.get("photo_form") or PhotoForm()
    return context


@login_required
def spill_detail(request, pk):
    spill = found(selectors.spill_detail, request.user, pk)
    return render(request, "spills/spill_detail.html", _detail_context(request, spill))


def _spill_step(request, pk, *, refusal: str, form_name: str, make_form, act, done):
    """A step taken on a spill's page (link, cost, photo): the spill in the user's scope (404), the
    role (403), the form; the service's refusal beside its field (400); else back to the spill."""
    spill = found(selectors.spill_detail, request.user, pk)
    require_role(request.user, SPILL_RECORDERS, refusal)
    form = make_form()
    if form.is_valid():
        try:
            result = act(spill, form.cleaned_data)
        except ValidationError as error:
            show_service_errors(form, error)
        except StateConflict as conflict:
            form.add_error(None, str(conflict))
        else:
            messages.success(request, done(result, form.cleaned_data))
            return redirect("spills:detail", spill.pk)
    return render(
        request, "spills/spill_detail.html", _detail_context(request, spill, **{form_name: form}), status=400
    )


@login_required
@require_POST
def spill_link(request, pk):
    return _spill_step(
        request, pk, refusal="Only the FOG Manager and inspectors link FSEs to spills.", form_name="link_form",
        make_form=lambda: LinkForm(request.POST, establishments=selectors.linkable_establishments(request.user)),
        act=lambda spill, data: services.spill_link(spill=spill, acting_user=request.user, **data),
        done=lambda link, data: f"{data['establishment'].business_name} linked.",
    )  # fmt: skip


@login_required
@require_POST
def spill_cost(request, pk):
    return _spill_step(
        request, pk, refusal="Only the FOG Manager and inspectors record the Town's costs.", form_name="cost_form",
        make_form=lambda: CostForm(request.POST, establishments=selectors.linkable_establishments(request.user)),
        act=lambda spill, data: services.cost_record(spill=spill, acting_user=request.user, **data),
        done=lambda cost, data: f"Cost recorded: ${cost.amount} owed by {cost.due_on:%B %-d, %Y}.",
    )  # fmt: skip


@login_required
@require_POST
def spill_photo(request, pk):
    return _spill_step(
        request, pk, refusal="Only the FOG Manager and inspectors add photos of spills.", form_name="photo_form",
        make_form=lambda: PhotoForm(request.POST, request.FILES),
        act=lambda spill, data: services.spill_photo_add(
            spill=spill, uploaded_file=data["file"], caption=data["caption"], acting_user=request.user
        ),
        done=lambda photo, data: "Photo added.",
    )  # fmt: skip


@login_required
def report_list(request):
    """Spill notices (J1): an FSE its own, staff all; each with its written report's due date."""
    filterset, rows = filtered_rows(SpillReportFilter, request, selectors.report_list(request.user))
    live_filters(filterset, request.path)
    page = paginate(request, rows, PER_PAGE)
    context = {
        "filter": filterset,
        "page": page,
        "can_report": has_role(request.user, REPORTERS),
        "today": timezone.localdate(),  # the Town's day: its time zone is active (no query)
    }
    export = Export("spill-reports", exports.REPORT_COLUMNS, rows)
    return render_list(request, "spills/report_list.html", context, export=export)


@login_required
def report_new(request):
    require_role(request.user, REPORTERS, "Only the FSE and Town staff report spills.")
    establishments = selectors.linkable_establishments(request.user)
    form = ReportForm(request.POST if request.method == "POST" else None, establishments=establishments)
    if request.method == "POST" and form.is_valid():
        try:
            report = services.report_record(acting_user=request.user, **form.cleaned_data)
        except ValidationError as error:
            show_service_errors(form, error)
        else:
            messages.success(
                request,
                f"Spill reported. The written report is due by {report.written_due_on:%A, %B %-d, %Y} (J2).",
            )
            return redirect("spills:report_detail", report.pk)
    return render(request, "spills/report_form.html", {"form": form}, status=400 if form.errors else 200)


def _report_context(request, report, form=None):
    can_write = has_role(request.user, REPORTERS) and not hasattr(report, "written")
    return {
        "report": report,
        "deadline": services.written_deadline(report),
        "today": timezone.localdate(),  # the Town's day: its time zone is active (no query)
        "form": (form or WrittenReportForm()) if can_write else None,
    }


@login_required
def report_detail(request, pk):
    report = found(selectors.report_detail, request.user, pk)
    return render(request, "spills/report_detail.html", _report_context(request, report))


@login_required
@require_POST
def report_written(request, pk):
    report = found(selectors.report_detail, request.user, pk)
    require_role(request.user, REPORTERS, "Only the FSE and Town staff send the written report.")
    form = WrittenReportForm(request.POST)
    if form.is_valid():
        try:
            services.written_report_submit(report=report, acting_user=request.user, **form.cleaned_data)
        except ValidationError as error:
            show_service_errors(form, error)
        except StateConflict as conflict:
            form.add_error(None, str(conflict))
        else:
            messages.success(request, _("Written report received; it is kept as a copy of record."))
            return redirect("spills:report_detail", report.pk)
    return render(request, "spills/report_detail.html", _report_context(request, report, form), status=400)


@login_required
def photo_download(request, pk):
    """A photo of a spill, only to those who may see the spill."""
    photo = found(selectors.spill_photo_detail, request.user, pk)
    return download(
        photo.file, filename=f"spill-{photo.spill_id}-photo-{photo.pk}.jpg", content_type="image/jpeg"
    )
