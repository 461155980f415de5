"""Licence import pages: list, upload, mapping, report (with progress while it runs), apply, CSV.

Program staff see imports; anyone else gets 404. Uploading and dry runs need registry editing
rights; only the FOG Manager sees and may press Apply.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from fogcontrol.core import csv_export
from fogcontrol.core.exports import Export
from fogcontrol.core.permissions import has_role, require_role
from fogcontrol.core.roles import REGISTRY_EDITORS, Role
from fogcontrol.core.views import filtered_rows, found, live_filters, paginate, render_list, staff_only
from fogcontrol.registry.exports import IMPORT_ROW_COLUMNS
from fogcontrol.registry.imports import selectors, services
from fogcontrol.registry.imports.filters import ImportRowFilter
from fogcontrol.registry.imports.forms import MappingForm, UploadForm
from fogcontrol.registry.models import LicenceImport

PER_PAGE = 50


def _import(request, pk) -> LicenceImport:
    return found(selectors.licence_import_detail, request.user, pk)


def _can_apply(user) -> bool:
    return has_role(user, {Role.FOG_MANAGER})


@login_required
def import_list(request):
    staff_only(request.user)
    page = paginate(request, selectors.licence_import_list(request.user), PER_PAGE)
    return render(request, "registry/imports/import_list.html", {"page": page, "imports": page.object_list})


@login_required
def import_upload(request):
    staff_only(request.user)
    require_role(
        request.user, REGISTRY_EDITORS, "Only the FOG Manager and inspectors may import licence records."
    )
    form = UploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            licence_import = services.licence_import_upload(
                acting_user=request.user, uploaded_file=form.cleaned_data["file"]
            )
        except ValidationError as error:
            for message in error.message_dict.get("file", error.messages):
                form.add_error("file", message)
        else:
            return redirect("imports:mapping", licence_import.pk)
    return render(request, "registry/imports/upload.html", {"form": form}, status=400 if form.errors else 200)


@login_required
def import_mapping(request, pk):
    licence_import = _import(request, pk)
    require_role(
        request.user, REGISTRY_EDITORS, "Only the FOG Manager and inspectors may import licence records."
    )
    if licence_import.status == LicenceImport.Status.APPLIED or licence_import.is_running:
        messages.error(request, _("This import can no longer be changed."))
        return redirect("imports:detail", pk)
    form = MappingForm(request.POST or None, headers=licence_import.headers, initial=licence_import.mapping)
    if request.method == "POST" and form.is_valid():
        try:
            licence_import = services.licence_import_set_mapping(
                licence_import=licence_import, acting_user=request.user, mapping=form.mapping()
            )
            services.licence_import_start(
                licence_import=licence_import, acting_user=request.user, apply=False
            )
        except ValidationError as error:
            for message in error.message_dict.get("mapping", error.messages):
                form.add_error(None, message)
        except services.ImportStateError as error:
            messages.error(request, str(error))
            return redirect("imports:detail", pk)
        else:
            messages.success(request, _("Dry run started: nothing in the registry changes until you apply."))
            return redirect("imports:detail", pk)
    return render(
        request,
        "registry/imports/mapping.html",
        {"licence_import": licence_import, "form": form},
        status=400 if form.errors else 200,
    )


@login_required
def import_detail(request, pk):
    licence_import = _import(request, pk)
    report = request.GET.get("report")
    applied = {"dry_run": False, "applied": True}.get(report)
    rows = selectors.licence_import_rows(licence_import, applied=applied)
    row_filter, shown_rows = filtered_rows(ImportRowFilter, request, rows)
    live_filters(row_filter, request.path)
    page = paginate(request, shown_rows, PER_PAGE)
    context = {
        "licence_import": licence_import,
        "filter": row_filter,
        "shown": ["outcome", "q"],
        "page": page,
        "rows": page.object_list,
        "showing_applied": licence_import.report_is_applied if applied is None else applied,
        "can_apply": _can_apply(request.user) and licence_import.status == LicenceImport.Status.CHECKED,
        "can_remap": has_role(request.user, REGISTRY_EDITORS)
        and licence_import.status != LicenceImport.Status.APPLIED
        and not licence_import.is_running,
    }
    export = Export(f"licence-import-{licence_import.pk}-rows", IMPORT_ROW_COLUMNS, shown_rows)
    return render_list(request, "registry/imports/detail.html", context, export=export)


@login_required
def import_status(request, pk):
    """The progress box, polled by htmx while the import runs; reloads the page when it ends."""
    licence_import = _import(request, pk)
    response = render(request, "registry/imports/detail.html#status", {"licence_import": licence_import})
    if not licence_import.is_running and request.GET.get("was") == "running":
        response["HX-Refresh"] = "true"
    return response


@login_required
@require_POST
def import_apply(request, pk):
    licence_import = _import(request, pk)
    try:
        services.licence_import_start(licence_import=licence_import, acting_user=request.user, apply=True)
    except services.ImportStateError as error:
        messages.error(request, str(error))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Import applied or running: the report below is the registry's."))
    return redirect("imports:detail", pk)


class _Echo:
    def write(self, value):
        return value


@login_required
def import_report_csv(request, pk):
    """The report as CSV, streamed: one line per input row, with outcome and reasons."""
    licence_import = _import(request, pk)
    report = request.GET.get("report")
    applied = {"dry_run": False, "applied": True}.get(report)
    if applied is None:
        applied = licence_import.report_is_applied
    rows = selectors.licence_import_rows(licence_import, applied=applied)
    writer = csv_export.writer(_Echo())

    def lines():
        yield writer.writerow(
            ["row", "outcome", "effect", "licence_number", "business_name", "changed_fields", "reasons"]
        )
        for row in rows.iterator(chunk_size=2000):
            yield writer.writerow(
                [
                    row.row_number,
                    row.outcome,
                    row.effect,
                    row.licence_number,
                    row.business_name,
                    "; ".join(row.changed_fields),
                    row.reason_text,
                ]
            )

    kind = "applied" if applied else "dry-run"
    response = StreamingHttpResponse(lines(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="licence-import-{licence_import.pk}-{kind}.csv"'
    return response
