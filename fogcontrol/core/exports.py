"""Every list exports to CSV and XLSX with its filters applied (`render_list(..., export=...)`).

A list declares its columns next to its view: `Column("Status", lambda p: p.get_status_display())`,
readable labels, never raw codes. The export takes the very rows the page pages through (the
same scoped selector, the same FilterSet), so it never holds a row the page would not show, and
walks them with `.iterator(chunk_size=...)`: memory stays flat at any size (bench/export_memory.py,
docs/performance.md). A list whose rows need related records uses `select_related` or an
annotation; a `prefetch_related` is done once per chunk, so the number of queries of an export does
not grow with its rows (within a chunk).

CSV is streamed row by row through the one formula-safe writer (`core/csv_export.py`). XLSX is
written by openpyxl in write-only mode into a temporary file (rows flushed to disk as they come)
and sent from it; a text cell that would run as a formula is neutralised there too.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from decimal import Decimal
from typing import Any

from django.db.models import Model
from django.http import FileResponse, StreamingHttpResponse
from django.utils import timezone
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

from fogcontrol.core import csv_export

# ?format= of a list URL: the export instead of the page.
FORMAT_FIELD = "format"
FORMATS = ("csv", "xlsx")
# Rows fetched from the database at a time (and the prefetch batch of a list that prefetches).
CHUNK_SIZE = 2000
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@dataclasses.dataclass(frozen=True)
class Column:
    """One column of an export: its heading and how a row's value is read (`row -> value`)."""

    label: str
    value: Callable[[Any], Any]


@dataclasses.dataclass(frozen=True)
class Export:
    """A list's export: the rows the page shows (filtered, scoped, ordered) and its columns.

    `name` is the file's name (`permits` -> `permits-2026-11-30.csv`). `prepare`, where the page
    decorates its rows before showing them (a day count worked out in Python, say), is applied to
    each chunk of rows as it is read: `prepare(list_of_rows) -> rows`."""

    name: str
    columns: Sequence[Column]
    rows: Iterable
    prepare: Callable[[list], Iterable] | None = None

    def header(self) -> list[str]:
        return [column.label for column in self.columns]

    def records(self) -> Iterator:
        rows = self.rows
        rows = rows.iterator(chunk_size=CHUNK_SIZE) if hasattr(rows, "iterator") else iter(rows)
        if self.prepare is None:
            yield from rows
            return
        while chunk := list(itertools.islice(rows, CHUNK_SIZE)):
            yield from self.prepare(chunk)

    def values(self) -> Iterator[list]:
        for row in self.records():
            yield [column.value(row) for column in self.columns]


def requested_format(request) -> str | None:
    """`csv` or `xlsx` when the list's URL asks for an export, else None (the page)."""
    if request.method not in ("GET", "HEAD"):
        return None
    wanted = request.GET.get(FORMAT_FIELD)
    return wanted if wanted in FORMATS else None


def _local(moment: dt.datetime, zone) -> dt.datetime:
    """A timestamp in Town time without its zone (spreadsheets cannot hold a zone)."""
    if timezone.is_aware(moment):
        moment = timezone.localtime(moment, zone)
    return moment.replace(tzinfo=None)


def plain(value, zone=None):
    """A cell as a spreadsheet should hold it: numbers and dates kept, everything else as text."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, int | float | Decimal):
        return value
    if isinstance(value, dt.datetime):
        return _local(value, zone)
    if isinstance(value, dt.date):
        return value
    if isinstance(value, Model):
        return str(value)
    if isinstance(value, list | tuple | set):
        return ", ".join(str(plain(item, zone)) for item in value)
    return str(value)


def _csv_cell(value, zone):
    value = plain(value, zone)
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ", timespec="minutes")
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def _xlsx_cell(value, zone):
    value = plain(value, zone)
    if isinstance(value, str):
        return csv_export.neutralise(ILLEGAL_CHARACTERS_RE.sub("", value))
    return value


def _filename(export: Export, extension: str) -> str:
    return f"{export.name}-{timezone.localdate().isoformat()}.{extension}"


def csv_response(export: Export) -> StreamingHttpResponse:
    """The export as CSV, streamed: one row of the database read, one line sent."""
    # The Town's zone, active now (program's middleware), is gone by the time the body is sent.
    zone = timezone.get_current_timezone()
    rows = ([_csv_cell(value, zone) for value in row] for row in export.values())
    response = StreamingHttpResponse(
        csv_export.stream(export.header(), rows), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{_filename(export, "csv")}"'
    return response


def xlsx_response(export: Export) -> FileResponse:
    """The export as XLSX: openpyxl's write-only workbook keeps no rows in memory; the file is built
    on disk and sent from there (the temporary file is gone once the response is closed)."""
    book = Workbook(write_only=True)
    sheet = book.create_sheet(title=export.name[:31])
    sheet.append(export.header())
    zone = timezone.get_current_timezone()
    for row in export.values():
        sheet.append([_xlsx_cell(value, zone) for value in row])
    spool = tempfile.TemporaryFile(suffix=".xlsx")  # noqa: SIM115 (FileResponse closes it)
    book.save(spool)
    spool.seek(0)
    return FileResponse(spool, as_attachment=True, filename=_filename(export, "xlsx"), content_type=XLSX_TYPE)


def export_response(request, export: Export):
    """The list's export in the format its URL asks for, or None when it asks for the page."""
    wanted = requested_format(request)
    if wanted == "csv":
        return csv_response(export)
    if wanted == "xlsx":
        return xlsx_response(export)
    return None
