"""Reading an uploaded licence export as a stream of rows: CSV or XLSX, never the whole file.

CSV: the encoding is found by one streaming pass (UTF-16 by its byte-order mark; UTF-8 with or
without a BOM; otherwise Windows-1252, falling back to Latin-1), the delimiter from the header
line. Quoted fields may span lines. XLSX: openpyxl in read-only mode, first sheet.

`open_rows` yields `SourceRow(row_number, values)` where `values` maps each header to its raw
cell; rows that are entirely blank are skipped (a spreadsheet's trailing empty rows).
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

CHUNK = 1024 * 1024
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
def open_rows(binary: IO[bytes], file_format: str) -> Iterator[tuple[FileFacts, Iterator[SourceRow]]]:
    """Open the file for one pass: (facts, rows). The caller closes it by leaving the block."""
    binary = _unwrap(binary)
    binary.seek(0)
    if file_format == "xlsx":
        with _open_xlsx(binary) as opened:
            yield opened
    else:
        with _open_csv(binary) as opened:
            yield opened


@contextlib.contextmanager
def _open_csv(binary: IO[bytes]):
    encoding = detect_encoding(binary)
    # errors="replace": an odd byte becomes "\ufffd" in one cell instead of stopping the import.
    text = io.TextIOWrapper(binary, encoding=encoding, errors="replace", newline="")
    try:
        header_line = text.readline()
        delimiter = detect_delimiter(header_line)
        header_cells = next(csv.reader([header_line], delimiter=delimiter), [])
        headers = clean_headers(header_cells)
        facts = FileFacts("csv", encoding=encoding, delimiter=delimiter, headers=tuple(headers))
        yield facts, _csv_rows(text, delimiter, headers)
    finally:
        text.detach()


def _csv_rows(text: IO[str], delimiter: str, headers: list[str]) -> Iterator[SourceRow]:
    reader = csv.reader(text, delimiter=delimiter)
    row_number = 1
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            # A broken quote: report the row, then carry on from the next line.
            row_number += 1
            yield SourceRow(row_number, {"__error__": f"The CSV row cannot be read ({error})."})
            continue
        row_number += 1
        if not any(cell.strip() for cell in cells):
            continue
        yield SourceRow(row_number, _values(headers, cells))


def _values(headers: list[str], cells) -> dict[str, object]:
    values = {header: (cells[index] if index < len(cells) else None) for index, header in enumerate(headers)}
    extra = [cell for cell in cells[len(headers) :] if cell not in (None, "")]
    if extra:
        values["__extra__"] = [str(cell) for cell in extra]
    return values


@contextlib.contextmanager
def _open_xlsx(binary: IO[bytes]):
    from openpyxl import load_workbook

    try:
        workbook = load_workbook(binary, read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, ValueError, OSError) as error:
        raise _bad_file(f"The workbook cannot be opened ({error}). Save it again as .xlsx or .csv.") from None
    try:
        sheet = workbook.worksheets[0]
        rows = sheet.iter_rows(values_only=True)
        header_cells = next(rows, ())
        headers = clean_headers(list(header_cells))
        facts = FileFacts("xlsx", headers=tuple(headers))
        yield facts, _xlsx_rows(rows, headers)
    finally:
        workbook.close()


def _xlsx_rows(rows, headers: list[str]) -> Iterator[SourceRow]:
    for row_number, cells in enumerate(rows, start=2):
        if not any(cell not in (None, "") and str(cell).strip() for cell in cells):
            continue
        yield SourceRow(row_number, _values(headers, list(cells)))
