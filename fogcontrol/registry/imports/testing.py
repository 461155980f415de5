"""Helpers for tests of licence imports: small CSV and XLSX uploads, and a one-call import."""

from __future__ import annotations

import csv
import io

from django.core.files.uploadedfile import SimpleUploadedFile

from fogcontrol.registry.imports import services
from fogcontrol.registry.models import LicenceImport

HEADER = ["Licence No", "Business Name", "Site Address", "Expires", "Latitude", "Longitude"]
XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def csv_bytes(rows: list[list], *, encoding: str = "utf-8", delimiter: str = ",", bom: bool = False) -> bytes:
    buffer = io.StringIO()
    csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n").writerows(rows)
    data = buffer.getvalue().encode(encoding)
    return (b"\xef\xbb\xbf" + data) if bom else data


def csv_upload(rows: list[list], *, name: str = "licences.csv", **options) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, csv_bytes(rows, **options), content_type="text/csv")


def xlsx_bytes(rows: list[list]) -> bytes:
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    for row in rows:
        sheet.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def xlsx_upload(rows: list[list], *, name: str = "licences.xlsx") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, xlsx_bytes(rows), content_type=XLSX_TYPE)


def import_upload(
    upload, *, mapping: dict | None = None, apply: bool = False, acting_user="tests"
) -> LicenceImport:
    """Upload, map (the proposed mapping unless given) and run at once, as the command does."""
    licence_import = services.licence_import_upload(acting_user=acting_user, uploaded_file=upload)
    licence_import = services.licence_import_set_mapping(
        licence_import=licence_import,
        acting_user=acting_user,
        mapping=licence_import.mapping if mapping is None else mapping,
    )
    return services.licence_import_run(licence_import=licence_import, acting_user=acting_user, apply=apply)


def report(licence_import: LicenceImport) -> dict[int, object]:
    """{row number: report row} of the latest report."""
    rows = licence_import.rows.filter(applied=licence_import.report_is_applied)
    return {row.row_number: row for row in rows}


def codes(row) -> list[str]:
    return [reason["code"] for reason in row.reasons]
