"""The map and the annual program report: Town staff's pages (404 for anyone else, as every staff
list). Thin: each binds its form, calls `map_data`, `annual` or `exports`, and renders."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.urls import reverse

from fogcontrol.core.views import paginate, staff_only
from fogcontrol.program.selectors import town_today
from fogcontrol.reports import exports, map_data
from fogcontrol.reports.annual import annual_report
from fogcontrol.reports.forms import MapFilterForm, YearForm
from fogcontrol.reports.tiles import tile_settings

PER_PAGE = 50
# Markers the server-drawn map (the no-script fallback) draws per layer; the GeoJSON holds them all.
FALLBACK_LIMIT = 1000


@login_required
def map_page(request):
    """Establishments by permit status and their devices by service status, and spills, filtered by
    status and area: Leaflet draws them from the GeoJSON (`map_geojson`, same filters); without
    script the server's SVG map and the table below show the same records."""
    staff_only(request.user)
    form = MapFilterForm(request.GET)
    valid = form.is_valid()
    filters = form.filters() if valid else map_data.MapFilters()
    fse_rows = map_data.establishment_rows(request.user, filters)
    shown = filters.layers
    points = []
    if valid and "establishment" in shown:
        points += [map_data.establishment_point(row) for row in fse_rows[:FALLBACK_LIMIT]]
    if valid and "spill" in shown:
        spills = map_data.spill_rows(request.user, filters)[:FALLBACK_LIMIT]
        points += [map_data.spill_point(row) for row in spills]
    tiles = tile_settings()
    context = {
        "form": form,
        "points": points,
        "page": paginate(
            request, fse_rows if valid and "establishment" in shown else fse_rows.none(), PER_PAGE
        ),
        "geojson_url": f"{reverse('reports:map_geojson')}?{request.GET.urlencode()}",
        "tiles": tiles,
        "fallback_limit": FALLBACK_LIMIT,
        "establishments_shown": "establishment" in shown,
        "service_statuses": map_data.SERVICE_STATUSES,
        "permit_statuses": map_data.PERMIT_STATUSES,
    }
    response = render(request, "reports/map.html", context, status=200 if valid else 400)
    if tiles.origin:
        # Only this page, and only when the Town set a tile server, lets images come from it
        # (django-csp's per-response update, as its `csp_update` decorator sets).
        response._csp_update = {"img-src": [tiles.origin]}
    return response


@login_required
def map_geojson(request):
    """The map's features as GeoJSON for the Town's GIS (and the map's script): the same filters."""
    staff_only(request.user)
    form = MapFilterForm(request.GET)
    if not form.is_valid():
        return _bad_filters(form)
    response = StreamingHttpResponse(
        exports.geojson_chunks(request.user, form.filters()), content_type=exports.GEOJSON_TYPE
    )
    response["Content-Disposition"] = f'inline; filename="fog-map-{town_today()}.geojson"'
    return response


def _bad_filters(form) -> HttpResponse:
    lines = [f"{form.fields[name].label if name in form.fields else name}: {' '.join(errors)}"
             for name, errors in form.errors.items()]  # fmt: skip
    return HttpResponse(
        "These filters cannot be used; correct them and ask again.\n" + "\n".join(lines),
        status=400,
        content_type="text/plain; charset=utf-8",
    )


@login_required
def annual(request):
    """The annual program report for the year chosen (this year by default), with its PDF and XLSX."""
    staff_only(request.user)
    today = town_today()
    form = YearForm(request.GET or {"year": today.year}, last_year=today.year)
    report = annual_report(request.user, form.cleaned_data["year"]) if form.is_valid() else None
    return render(
        request, "reports/annual.html", {"form": form, "report": report}, status=200 if report else 400
    )


def _report_or_refusal(request, year: int):
    form = YearForm({"year": year}, last_year=town_today().year)
    if not form.is_valid():
        message = " ".join(form.errors["year"])
        return None, HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
    return annual_report(request.user, year), None


@login_required
def annual_pdf(request, year: int):
    staff_only(request.user)
    report, refusal = _report_or_refusal(request, year)
    if refusal:
        return refusal
    response = HttpResponse(exports.annual_report_pdf(report), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="fog-program-report-{year}.pdf"'
    return response


@login_required
def annual_xlsx(request, year: int):
    staff_only(request.user)
    report, refusal = _report_or_refusal(request, year)
    if refusal:
        return refusal
    response = HttpResponse(exports.annual_report_xlsx(report), content_type=exports.XLSX_TYPE)
    response["Content-Disposition"] = f'attachment; filename="fog-program-report-{year}.xlsx"'
    return response
