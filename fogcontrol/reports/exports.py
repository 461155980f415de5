"""The report and the map as files: the annual report as a PDF (WeasyPrint, as permits' and billing's
documents) and as an XLSX workbook (openpyxl, as billing's licence holds); the map's features as a
GeoJSON FeatureCollection (RFC 7946) for the Town's GIS, written as it is read, so a large town's
export never sits whole in memory."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from decimal import Decimal

from django.core.serializers.json import DjangoJSONEncoder
from django.template.loader import render_to_string
from openpyxl import Workbook
from openpyxl.styles import Font

from fogcontrol.permits.services.common import town_contacts
from fogcontrol.reports.annual import AnnualReport
from fogcontrol.reports.map_data import MapFilters, features

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
GEOJSON_TYPE = "application/geo+json"


def annual_report_pdf(report: AnnualReport) -> bytes:
    # WeasyPrint reports each step at INFO: quieten it, and import it only when printing.
    logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)
    from weasyprint import HTML

    html = render_to_string("reports/pdf/annual.html", {"report": report, "contacts": town_contacts()})
    return HTML(string=html).write_pdf()


def annual_report_xlsx(report: AnnualReport) -> bytes:
    """One sheet: a row per figure, under its section, with its key for programs that read it."""
    book = Workbook()
    sheet = book.active
    sheet.title = f"Program report {report.year}"
    sheet.append([f"FOG control program report, {report.year}"])
    sheet["A1"].font = Font(bold=True, size=13)
    period = f"{report.start.isoformat()} to {report.as_of.isoformat()}"
    sheet.append(["Period", period + (" (the year so far)" if report.partial else "")])
    sheet.append([])
    sheet.append(["Section", "Figure", "Value", "Note", "Key"])
    for cell in sheet[4]:
        cell.font = Font(bold=True)
    for section in report.sections:
        for figure in section.figures:
            value = float(figure.value) if isinstance(figure.value, Decimal) else figure.value
            sheet.append([section.title, figure.label, value, figure.note, f"{section.key}.{figure.key}"])
    for column, width in zip("ABCDE", (34, 56, 14, 50, 30), strict=True):
        sheet.column_dimensions[column].width = width
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def geojson_chunks(user, filters: MapFilters) -> Iterator[str]:
    """The FeatureCollection in pieces: the opening, each feature, the closing."""
    yield '{"type": "FeatureCollection", "features": ['
    first = True
    for feature in features(user, filters):
        yield ("" if first else ",\n") + json.dumps(feature, cls=DjangoJSONEncoder)
        first = False
    yield "]}\n"
