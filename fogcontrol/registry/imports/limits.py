"""What reading an uploaded file may cost, checked before and while it is read.

An .xlsx workbook is a zip of XML files, and its size on disk says little about the work it
asks for: a 410 KB file can hold shared strings that expand to 400 MB, and a 3 MB one a sheet of
five million rows. So, before openpyxl opens a workbook:

- every member's decompressed size, as the zip's directory declares it, is bounded, and so are
  their total and each member's compression ratio (Python's zipfile never inflates a member
  beyond its declared size: it stops there and reports a bad CRC);
- then the sheet's declared size is checked, and rows and columns are counted while it is read;
- reading at upload time has a deadline, checked on every read of the file.

The limits are settings (`FOGCONTROL_XLSX_*`, `FOGCONTROL_UPLOAD_*`), not ordinance numbers.
Over a limit the file is refused with a ValidationError on "file" that says which limit and what
to do.
"""

from __future__ import annotations

import dataclasses
import time
import zipfile
from typing import IO

from django.conf import settings
from django.core.exceptions import ValidationError

# Members a workbook may hold: real ones have a few dozen (sheets, styles, images).
MAX_ZIP_MEMBERS = 10_000
# A member this small may compress as well as it likes: the ratio matters only for big ones.
RATIO_FLOOR_BYTES = 1024 * 1024
WORKBOOK_MEMBER = "xl/workbook.xml"


@dataclasses.dataclass(frozen=True)
class UploadLimits:
    max_member_bytes: int
    max_unzipped_bytes: int
    max_ratio: float
    max_rows: int
    max_columns: int
    read_seconds: float

    @classmethod
    def from_settings(cls) -> UploadLimits:
        return cls(
            max_member_bytes=settings.FOGCONTROL_XLSX_MAX_MEMBER_BYTES,
            max_unzipped_bytes=settings.FOGCONTROL_XLSX_MAX_UNZIPPED_BYTES,
            max_ratio=settings.FOGCONTROL_XLSX_MAX_RATIO,
            max_rows=settings.FOGCONTROL_XLSX_MAX_ROWS,
            max_columns=settings.FOGCONTROL_UPLOAD_MAX_COLUMNS,
            read_seconds=settings.FOGCONTROL_UPLOAD_READ_SECONDS,
        )


def refused(message: str) -> ValidationError:
    return ValidationError({"file": message})


def _mb(size: float) -> str:
    return f"{size / 1048576:,.1f} MB"


def check_workbook_archive(binary: IO[bytes], limits: UploadLimits) -> None:
    """Refuse a workbook whose members would expand beyond the limits, before any is inflated."""
    binary.seek(0)
    try:
        with zipfile.ZipFile(binary) as archive:
            members = archive.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError) as error:
        raise refused(f"The workbook cannot be opened ({error}). Save it again as .xlsx or .csv.") from None
    finally:
        binary.seek(0)
    if len(members) > MAX_ZIP_MEMBERS:
        raise refused(
            f"The workbook holds {len(members):,} parts; a spreadsheet has a few dozen. "
            "Save the records again as .xlsx or .csv."
        )
    if WORKBOOK_MEMBER not in {member.filename for member in members}:
        raise refused(
            "The file is a zip archive but not an Excel workbook. Export it again as .xlsx or .csv."
        )
    total = 0
    for member in members:
        total += member.file_size
        if member.file_size > limits.max_member_bytes:
            raise refused(
                f"The workbook's part {member.filename} expands to {_mb(member.file_size)}; the most "
                f"accepted is {_mb(limits.max_member_bytes)}. Save only the records to import, as .csv, "
                "and upload that."
            )
        ratio = member.file_size / max(member.compress_size, 1)
        if member.file_size > RATIO_FLOOR_BYTES and ratio > limits.max_ratio:
            raise refused(
                f"The workbook's part {member.filename} expands {ratio:,.0f} times (to "
                f"{_mb(member.file_size)}); no spreadsheet compresses more than {limits.max_ratio:,.0f} "
                "times. Save the records again as .xlsx or .csv."
            )
    if total > limits.max_unzipped_bytes:
        raise refused(
            f"The workbook expands to {_mb(total)}; the most accepted is {_mb(limits.max_unzipped_bytes)}. "
            "Save only the records to import, as .csv, and upload that."
        )


def check_sheet_size(*, rows: int | None, columns: int | None, limits: UploadLimits) -> None:
    """Refuse a sheet whose declared size (its dimension, when it has one) is over the limits."""
    if rows is not None and rows > limits.max_rows + 1:
        raise too_many_rows(limits, declared=rows)
    if columns is not None and columns > limits.max_columns:
        raise too_many_columns(limits, columns)


def too_many_rows(limits: UploadLimits, *, declared: int | None = None) -> ValidationError:
    size = f"declares {declared - 1:,} rows" if declared else "has more rows than that"
    return refused(
        f"A file may hold at most {limits.max_rows:,} rows below the header; this sheet {size}. "
        "Split it into smaller files."
    )


def too_many_columns(limits: UploadLimits, columns: int) -> ValidationError:
    return refused(
        f"The file has {columns:,} columns; at most {limits.max_columns:,} are accepted. "
        "Export only the columns the import needs."
    )


class DeadlineFile:
    """A binary file whose every read first checks the clock (zipfile and openpyxl read through it)."""

    def __init__(self, raw: IO[bytes], seconds: float):
        self._raw = raw
        self._seconds = seconds
        self._deadline = time.monotonic() + seconds

    def _check(self) -> None:
        if time.monotonic() > self._deadline:
            raise refused(
                f"Reading the file took longer than {self._seconds:g} seconds, the most allowed. "
                "Save only the records to import, as .csv, and upload that."
            )

    def read(self, size: int = -1) -> bytes:
        self._check()
        return self._raw.read(size)

    def seek(self, offset: int, whence: int = 0) -> int:
        return self._raw.seek(offset, whence)

    def tell(self) -> int:
        return self._raw.tell()

    def seekable(self) -> bool:
        return True

    def readable(self) -> bool:
        return True

    def __getattr__(self, name):
        return getattr(self._raw, name)
