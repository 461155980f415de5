"""The spill import pages: the imports with the upload form (a dry run at once), one import's
report row by row, and applying it (the FOG Manager). Town staff only (404 for anyone else)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from fogcontrol.core.errors import StateConflict
from fogcontrol.core.exports import Export
from fogcontrol.core.forms import show_service_errors
from fogcontrol.core.permissions import has_role, require_role
from fogcontrol.core.views import found, paginate, render_list, staff_only
from fogcontrol.spills import selectors
from fogcontrol.spills.exports import IMPORT_COLUMNS
from fogcontrol.spills.imports import services
from fogcontrol.spills.imports.forms import SpillImportForm
from fogcontrol.spills.roles import IMPORT_APPLIERS, SPILL_RECORDERS


@login_required
def import_list(request):
    staff_only(request.user)
    form = SpillImportForm(request.POST, request.FILES) if request.method == "POST" else SpillImportForm()
    if request.method == "POST":
        require_role(
            request.user,
            SPILL_RECORDERS,
            "Only the FOG Manager and inspectors import the State's spill files.",
        )
        if form.is_valid():
            try:
                spill_import = services.spill_import_upload(
                    acting_user=request.user,
                    uploaded_file=form.cleaned_data["file"],
                    agency_wdid=form.cleaned_data["agency"],
                )
            except ValidationError as error:
                show_service_errors(form, error)
            else:
                messages.success(request, _("Dry run done: nothing is written until the import is applied."))
                return redirect("spills:import_detail", spill_import.pk)
    rows = selectors.spill_import_list(request.user)
    page = paginate(request, rows, 25)
    context = {"page": page, "form": form, "can_import": has_role(request.user, SPILL_RECORDERS)}
    export = Export("spill-imports", IMPORT_COLUMNS, rows)
    return render_list(
        request, "spills/import_list.html", context, status=400 if form.errors else 200, export=export
    )


@login_required
def import_detail(request, pk):
    staff_only(request.user)
    spill_import = found(selectors.spill_import_detail, request.user, pk)
    rows = spill_import.rows.filter(applied=spill_import.status == "applied").order_by("row_number")
    if request.GET.get("problems"):
        rows = rows.exclude(reasons=[])
    context = {
        "spill_import": spill_import,
        "page": paginate(request, rows, 100),
        "can_apply": has_role(request.user, IMPORT_APPLIERS) and spill_import.status == "checked",
    }
    return render(request, "spills/import_detail.html", context)


@login_required
@require_POST
def import_apply(request, pk):
    staff_only(request.user)
    spill_import = found(selectors.spill_import_detail, request.user, pk)
    require_role(
        request.user, IMPORT_APPLIERS, "Only the FOG Manager applies an import of the State's files."
    )
    try:
        services.spill_import_apply(spill_import=spill_import, acting_user=request.user)
        messages.success(request, _("Import applied."))
    except StateConflict as conflict:
        messages.error(request, str(conflict))
    return redirect("spills:import_detail", spill_import.pk)
