"""Reading an uploaded file as a stream of rows: CSV or XLSX, never the whole file.

Shared by the licence import and the manifest CSV import (`fogcontrol/servicing/imports.py`).

CSV: the encoding is found by one streaming pass (UTF-16 by its byte-order mark; UTF-8 with or
without a BOM; otherwise Windows-1252, falling back to Latin-1), the delimiter from the header
line. Quoted fields may span lines. A file whose start is not text (NULs, control characters:
an image, a PDF, random bytes) is refused as such. XLSX: openpyxl in read-only mode, first
sheet, within the limits of `limits.py` (checked before the workbook is opened).

`open_rows` yields `SourceRow(row_number, values)` where `values` maps each header to its raw
cell; rows that are entirely blank are skipped (a spreadsheet's trailing empty rows). A row that
cannot be read (a broken quote, a cell over the CSV field limit, too many cells) comes as
`{"__error__": reason}`: that row is rejected, the others are read.
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import dataclasses
import io
import zipfile
from collections.abc import Iterator
from typing import IO

from django.core.exceptions import ValidationError
from django.core.files import File

from fogcontrol.registry.imports.limits import (
    DeadlineFile,
    UploadLimits,
    check_sheet_size,
    check_workbook_archive,
    too_many_columns,
    too_many_rows,
)

CHUNK = 1024 * 1024
# How much of a file is looked at to tell text from binary, and the share of control characters
# above which it is taken for binary (a real export has none but tabs and line ends).
TEXT_SAMPLE = 64 * 1024
CONTROL_SHARE = 0.01
# The header line is read with a bound: a "CSV" of one 50 MB line is not an export.
MAX_HEADER_CHARS = 1024 * 1024
DELIMITERS = (",", ";", "\t", "|")
XLSX_MAGIC = b"PK\x03\x04"
# Old binary formats an export tool may produce under the wrong name.
OLE_MAGIC = b"\xd0\xcf\x11\xe0"
ALLOWED_EXTENSIONS = {"csv": "csv", "txt": "csv", "xlsx": "xlsx"}
ALLOWED_CONTENT_TYPES = {
    "csv": {
        "text/csv",
        "text/plain",
        "application/csv",
        "text/comma-separated-values",
        "application/vnd.ms-excel",  # what Windows browsers send for .csv
        "application/octet-stream",
        "",
    },
    "xlsx": {
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "application/octet-stream",
        "application/zip",
        "",
    },
}


@dataclasses.dataclass(frozen=True)
class SourceRow:
    row_number: int
    values: dict[str, object]


@dataclasses.dataclass(frozen=True)
class FileFacts:
    file_format: str
    encoding: str = ""
    delimiter: str = ""
    headers: tuple[str, ...] = ()
    # XLSX: the rows the sheet declares (its dimension); None when it does not say.
    declared_rows: int | None = None


def _bad_file(message: str) -> ValidationError:
    return ValidationError({"file": message})


def check_upload(*, name: str, content_type: str, size: int, head: bytes, max_bytes: int) -> str:
    """The file's format ("csv" or "xlsx"), or ValidationError on "file" saying what to do."""
    extension = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    if extension == "xls" or head.startswith(OLE_MAGIC):
        raise _bad_file("This is an old Excel (.xls) file. Save it as .xlsx or .csv and upload that.")
    if extension not in ALLOWED_EXTENSIONS:
        raise _bad_file(f'"{name}" is not a CSV or XLSX file. Export the licence records as .csv or .xlsx.')
    file_format = ALLOWED_EXTENSIONS[extension]
    if size == 0:
        raise _bad_file("The file is empty.")
    if size > max_bytes:
        raise _bad_file(
            f"The file is {size / 1048576:.1f} MB; the largest accepted is {max_bytes / 1048576:.0f} MB. "
            "Split it, or export only the columns the import needs."
        )
    base_type = (content_type or "").split(";")[0].strip().lower()
    if base_type not in ALLOWED_CONTENT_TYPES[file_format]:
        raise _bad_file(f'The file was sent as "{base_type}", which is not a {file_format.upper()} file.')
    if file_format == "xlsx" and not head.startswith(XLSX_MAGIC):
        raise _bad_file(
            "The file is named .xlsx but is not an Excel workbook. Export it again as .xlsx or .csv."
        )
    if file_format == "csv":
        if head.startswith(XLSX_MAGIC):
            raise _bad_file("The file is named .csv but is an Excel workbook: rename it .xlsx.")
        if b"\x00" in head and not head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
            raise _bad_file("The file is not text. Export the licence records as .csv or .xlsx.")
    return file_format


def detect_encoding(binary: IO[bytes]) -> str:
    """One streaming pass over the bytes; the file position is restored to the start."""
    binary.seek(0)
    head = binary.read(4)
    binary.seek(0)
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    decoder = codecs.getincrementaldecoder("utf-8")()
    cp1252_ok = True
    valid_utf8 = True
    while chunk := binary.read(CHUNK):
        if valid_utf8:
            try:
                decoder.decode(chunk)
            except UnicodeDecodeError:
                valid_utf8 = False
        if not valid_utf8:
            # Five bytes are undefined in Windows-1252; a file with them is read as Latin-1.
            cp1252_ok = cp1252_ok and not any(byte in chunk for byte in b"\x81\x8d\x8f\x90\x9d")
            if not cp1252_ok:
                break
    if valid_utf8:
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            valid_utf8 = False
    binary.seek(0)
    if valid_utf8:
        return "utf-8-sig"  # reads plain UTF-8 too, and drops a BOM if there is one
    return "cp1252" if cp1252_ok else "latin-1"


def _is_control(char: str) -> bool:
    return (char < " " and char not in "\t\n\r\x0c") or "\x7f" <= char <= "\x9f" or char == "\ufffd"


def text_problem(binary: IO[bytes], encoding: str) -> str:
    """Why the start of the file is not text in `encoding` (a binary file), or "" if it is."""
    binary.seek(0)
    head = binary.read(TEXT_SAMPLE)
    binary.seek(0)
    # Not final: a character cut at the end of the sample is not a fault of the file.
    text = codecs.getincrementaldecoder(encoding)(errors="replace").decode(head)
    controls = sum(1 for char in text if _is_control(char))
    if "\x00" in text or controls > len(text) * CONTROL_SHARE:
        return (
            "The file is not text: it looks like a binary file (an image, a PDF or a program's own "
            "format). Export the records as .csv (or .xlsx where accepted) and upload that."
        )
    return ""


def csv_error_message(error: csv.Error) -> str:
    """Why csv could not read a row, in words a clerk can act on."""
    if "field larger than field limit" in str(error):
        return (
            f"A cell of this row is longer than {csv.field_size_limit():,} characters, the most a cell "
            "may hold (often a quote left open, so that the rest of the file ran into one cell). "
            "Shorten the cell or close the quote."
        )
    return f"The CSV row cannot be read ({error})."


def detect_delimiter(header_line: str) -> str:
    """The candidate that occurs most in the header line (outside quotes); a comma by default."""
    outside, quoted = [], False
    for char in header_line:
        if char == '"':
            quoted = not quoted
        elif not quoted:
            outside.append(char)
    text = "".join(outside)
    counts = {delimiter: text.count(delimiter) for delimiter in DELIMITERS}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ","


def clean_headers(raw: list) -> list[str]:
    """Headers trimmed; blank or repeated ones named so that every column can be mapped."""
    headers: list[str] = []
    for index, value in enumerate(raw, start=1):
        header = " ".join(str(value).split()) if value is not None else ""
        header = header or f"Column {index}"
        base, n = header, 2
        while header in headers:
            header, n = f"{base} ({n})", n + 1
        headers.append(header)
    return headers


def _unwrap(fileobj):
    """The plain binary file under Django's File wrappers (uploads, stored files)."""
    while isinstance(fileobj, File):
        fileobj = fileobj.file
    return fileobj


@contextlib.contextmanager
def open_rows(
    binary: IO[bytes],
    file_format: str,
    *,
    limits: UploadLimits | None = None,
    deadline_seconds: float | None = None,
) -> Iterator[tuple[FileFacts, Iterator[SourceRow]]]:
    """Open the file for one pass: (facts, rows). The caller closes it by leaving the block.

    `limits` default to the settings; `deadline_seconds` bounds the time spent reading a workbook
    (given at upload time, where a person waits)."""
    binary = _unwrap(binary)
    binary.seek(0)
    limits = limits or UploadLimits.from_settings()
    if file_format == "xlsx":
        with _open_xlsx(binary, limits, deadline_seconds) as opened:
            yield opened
    else:
        with _open_csv(binary, limits) as opened:
            yield opened


@contextlib.contextmanager
def open_text(binary: IO[bytes]) -> Iterator[tuple[str, str, IO[str]]]:
    """(encoding, delimiter, text) of a CSV file, positioned at its start; refuses binary files."""
    binary = _unwrap(binary)
    encoding = detect_encoding(binary)
    problem = text_problem(binary, encoding)
    if problem:
        raise _bad_file(problem)
    # errors="replace": an odd byte becomes "\ufffd" in one cell instead of stopping the import.
    text = io.TextIOWrapper(binary, encoding=encoding, errors="replace", newline="")
    try:
        header_line = text.readline(MAX_HEADER_CHARS)
        if len(header_line) >= MAX_HEADER_CHARS and not header_line.endswith(("\n", "\r")):
            raise _bad_file(
                f"The first line is longer than {MAX_HEADER_CHARS:,} characters: it should name the "
                "columns. Export the records again as .csv."
            )
        delimiter = detect_delimiter(header_line)
        text.seek(0)
        yield encoding, delimiter, text
    finally:
        text.detach()


@contextlib.contextmanager
def _open_csv(binary: IO[bytes], limits: UploadLimits):
    with open_text(binary) as (encoding, delimiter, text):
        header_line = text.readline(MAX_HEADER_CHARS)
        try:
            header_cells = next(csv.reader([header_line], delimiter=delimiter), [])
        except csv.Error as error:
            raise _bad_file(f"The first line cannot be read: {csv_error_message(error)}") from None
        if len(header_cells) > limits.max_columns:
            raise too_many_columns(limits, len(header_cells))
        headers = clean_headers(header_cells)
        facts = FileFacts("csv", encoding=encoding, delimiter=delimiter, headers=tuple(headers))
        yield facts, _csv_rows(text, delimiter, headers, limits)


def _csv_rows(text: IO[str], delimiter: str, headers: list[str], limits: UploadLimits) -> Iterator[SourceRow]:
    reader = csv.reader(text, delimiter=delimiter)
    row_number = 1
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            # A broken quote or an oversized cell: report the row, then carry on from the next line.
            row_number += 1
            yield SourceRow(row_number, {"__error__": csv_error_message(error)})
            continue
        row_number += 1
        if not any(cell.strip() for cell in cells):
            continue
        if len(cells) > limits.max_columns:
            yield SourceRow(row_number, {"__error__": _too_wide(len(cells), limits)})
            continue
        yield SourceRow(row_number, _values(headers, cells))


def _too_wide(cells: int, limits: UploadLimits) -> str:
    return f"This row has {cells:,} cells; a row may have at most {limits.max_columns:,}."


def _values(headers: list[str], cells) -> dict[str, object]:
    values = {header: (cells[index] if index < len(cells) else None) for index, header in enumerate(headers)}
    extra = [cell for cell in cells[len(headers) :] if cell not in (None, "")]
    if extra:
        values["__extra__"] = [str(cell) for cell in extra]
    return values


@contextlib.contextmanager
def _open_xlsx(binary: IO[bytes], limits: UploadLimits, deadline_seconds: float | None):
    # Before anything is inflated: no member may expand beyond the limits.
    check_workbook_archive(binary, limits)
    from openpyxl import load_workbook

    source = DeadlineFile(binary, deadline_seconds) if deadline_seconds is not None else binary
    try:
        workbook = load_workbook(source, read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as error:
        raise _bad_file(f"The workbook cannot be opened ({error}). Save it again as .xlsx or .csv.") from None
    try:
        if not workbook.worksheets:
            raise _bad_file("The workbook has no sheet. Save the records again as .xlsx or .csv.")
        sheet = workbook.worksheets[0]
        # The dimension the sheet declares, if any (openpyxl pads rows to it).
        check_sheet_size(rows=sheet.max_row, columns=sheet.max_column, limits=limits)
        rows = sheet.iter_rows(values_only=True)
        header_cells = list(next(rows, ()))
        if len(header_cells) > limits.max_columns:
            # Formatted empty cells widen a row; only cells with something in them count.
            header_cells = _trimmed(header_cells)
            if len(header_cells) > limits.max_columns:
                raise too_many_columns(limits, len(header_cells))
        headers = clean_headers(header_cells)
        facts = FileFacts("xlsx", headers=tuple(headers), declared_rows=sheet.max_row)
        yield facts, _xlsx_rows(rows, headers, limits)
    finally:
        workbook.close()


def _trimmed(cells) -> list:
    """The row without its trailing empty cells (formatting, not data)."""
    cells = list(cells)
    while cells and cells[-1] in (None, ""):
        cells.pop()
    return cells


def _xlsx_rows(rows, headers: list[str], limits: UploadLimits) -> Iterator[SourceRow]:
    # Row numbers are the sheet's (openpyxl fills gaps with empty rows), so a sheet whose rows
    # jump to row 1,048,576 meets the row limit as soon as one holding that many would.
    for row_number, cells in enumerate(rows, start=2):
        if row_number > limits.max_rows + 1:
            raise too_many_rows(limits)
        if not any(cell not in (None, "") and str(cell).strip() for cell in cells):
            continue
        cells = list(cells)
        if len(cells) > limits.max_columns:
            cells = _trimmed(cells)
            if len(cells) > limits.max_columns:
                yield SourceRow(row_number, {"__error__": _too_wide(len(cells), limits)})
                continue
        yield SourceRow(row_number, _values(headers, cells))
