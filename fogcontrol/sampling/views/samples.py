"""Sample pages (D5): the list, a new sample (from an inspection or not), a sample with its chain
of custody and results, and the forms that add to it: a hand-off, a result, a CSV upload, a D6
charge. Thin: each calls one selector or service."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from fogcontrol.core.errors import StateConflict
from fogcontrol.core.exports import Export
from fogcontrol.core.files import download
from fogcontrol.core.forms import show_service_errors
from fogcontrol.core.permissions import has_role
from fogcontrol.core.views import filtered_rows, found, live_filters, paginate, render_list
from fogcontrol.findings.models import Finding
from fogcontrol.findings.selectors import findings_visible_to
from fogcontrol.inspections.selectors import charges_of_sample, inspection_detail
from fogcontrol.program.selectors import town_today
from fogcontrol.registry.selectors import devices_visible_to, establishments_visible_to
from fogcontrol.sampling import selectors, services
from fogcontrol.sampling.exports import SAMPLE_COLUMNS
from fogcontrol.sampling.filters import SampleFilter
from fogcontrol.sampling.forms import CustodyForm, ResultForm, SampleChargeForm, SampleForm, UploadForm
from fogcontrol.sampling.roles import SAMPLERS, require_step

PAGE_SIZE = 50


@login_required
def sample_list(request):
    """Samples the user may see, newest first, filtered."""
    filterset, rows = filtered_rows(SampleFilter, request, selectors.sample_list(request.user))
    live_filters(filterset, request.path)
    context = {
        "filter": filterset,
        "page": paginate(request, rows, PAGE_SIZE),
        "can_sample": has_role(request.user, SAMPLERS),
    }
    export = Export("samples", SAMPLE_COLUMNS, rows)
    return render_list(request, "sampling/sample_list.html", context, export=export)


@login_required
def sample_new(request):
    """D5: record a sample; from an inspection's page the establishment and the visit are filled in."""
    require_step(request.user, "create")
    inspection = None
    raw_inspection = request.POST.get("inspection") or request.GET.get("inspection") or ""
    if raw_inspection.isdigit():
        inspection = found(inspection_detail, request.user, int(raw_inspection))
    establishments = establishments_visible_to(request.user).order_by("business_name")
    devices = devices_visible_to(request.user).order_by("identifier")
    if inspection is not None:
        establishments = establishments.filter(pk=inspection.establishment_id)
        devices = devices.filter(establishments=inspection.establishment_id)
    initial = {"sampled_by": request.user.get_full_name() or request.user.username}
    if inspection is not None:
        initial.update(establishment=inspection.establishment_id, inspection=inspection.pk)
    form = SampleForm(request.POST or None, establishments=establishments, devices=devices, initial=initial)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = dict(form.cleaned_data)
            data.pop("inspection")
            try:
                sample = services.sample_record(acting_user=request.user, inspection=inspection, **data)
            except ValidationError as exc:
                show_service_errors(form, exc)
            except StateConflict as exc:
                form.add_error(None, str(exc))
                status = 409
            else:
                messages.success(request, f"Sample {sample.pk} recorded. Record each hand-off as it happens.")
                return redirect("sampling:detail", sample.pk)
    return render(
        request, "sampling/sample_form.html", {"form": form, "inspection": inspection}, status=status
    )


def _detail_context(request, sample, **forms) -> dict:
    results = list(sample.results.all())
    findings = {
        finding.source_id: finding
        for finding in findings_visible_to(request.user).filter(
            source=Finding.Source.SAMPLE, source_id__in=[r.pk for r in results]
        )
    }
    custody = list(sample.custody.all())
    holder = custody[-1].received_by if custody else sample.sampled_by
    can_sample = has_role(request.user, SAMPLERS)
    context = {
        "sample": sample,
        "custody": custody,
        "rows": [(result, findings.get(result.pk)) for result in results],
        "reports": list(sample.reports.all()),
        "charges": list(charges_of_sample(request.user, sample.pk)),
        "can_sample": can_sample,
    }
    if can_sample:
        context.update(
            custody_form=forms.get("custody_form") or CustodyForm(initial={"released_by": holder}),
            result_form=forms.get("result_form")
            or ResultForm(initial={"reported_by": sample.laboratory, "analysed_on": town_today()}),
            upload_form=forms.get("upload_form") or UploadForm(),
            charge_form=forms.get("charge_form") or SampleChargeForm(initial={"incurred_on": town_today()}),
        )
    return context


@login_required
def sample_detail(request, pk: int):
    sample = found(selectors.sample_detail, request.user, pk)
    return render(request, "sampling/sample_detail.html", _detail_context(request, sample))


def _step(request, pk: int, step: str, form_class, form_name: str, call, done: str):
    """The one shape of every form on a sample's page: the sample (404 outside the scope), the role
    (403), the form, the service; refused input is shown beside its field (400)."""
    sample = found(selectors.sample_detail, request.user, pk)
    require_step(request.user, step)
    form = form_class(request.POST, request.FILES)
    if form.is_valid():
        try:
            call(sample, form.cleaned_data)
        except ValidationError as exc:
            show_service_errors(form, exc)
        else:
            messages.success(request, done)
            return redirect("sampling:detail", sample.pk)
    sample = found(selectors.sample_detail, request.user, pk)
    context = _detail_context(request, sample, **{form_name: form})
    return render(request, "sampling/sample_detail.html", context, status=400)


@login_required
@require_POST
def custody_add(request, pk: int):
    return _step(
        request,
        pk,
        "custody",
        CustodyForm,
        "custody_form",
        lambda sample, data: services.custody_add(sample=sample, acting_user=request.user, **data),
        "Hand-off recorded.",
    )


@login_required
@require_POST
def result_add(request, pk: int):
    return _step(
        request,
        pk,
        "results",
        ResultForm,
        "result_form",
        lambda sample, data: services.results_record(sample=sample, acting_user=request.user, rows=[data]),
        "Result recorded.",
    )


@login_required
@require_POST
def results_upload(request, pk: int):
    return _step(
        request,
        pk,
        "upload",
        UploadForm,
        "upload_form",
        lambda sample, data: services.results_upload(
            sample=sample, acting_user=request.user, file=data["file"]
        ),
        "Lab results uploaded; the file is kept with the sample.",
    )


@login_required
@require_POST
def charge_add(request, pk: int):
    return _step(
        request,
        pk,
        "charge",
        SampleChargeForm,
        "charge_form",
        lambda sample, data: services.sample_charge(sample=sample, acting_user=request.user, **data),
        "Compliance charge recorded (D6).",
    )


@login_required
def report_download(request, pk: int):
    """A lab's uploaded file, only to those who may see its sample."""
    report = found(selectors.report_detail, request.user, pk)
    return download(report.file, filename=report.original_name, content_type="text/csv")
