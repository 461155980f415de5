"""Reads of licence imports: program staff only; anyone else finds nothing (404)."""

from __future__ import annotations

from django.db.models import QuerySet

from fogcontrol.registry.models import LicenceImport, LicenceImportRow


def licence_imports_visible_to(user) -> QuerySet[LicenceImport]:
    return LicenceImport.objects.visible_to(user)


def licence_import_list(user) -> QuerySet[LicenceImport]:
    return licence_imports_visible_to(user).select_related("uploaded_by", "applied_by")


def licence_import_detail(user, pk) -> LicenceImport:
    """Raises LicenceImport.DoesNotExist outside the user's scope."""
    return licence_import_list(user).get(pk=pk)


def licence_import_rows(
    licence_import: LicenceImport, *, applied: bool | None = None
) -> QuerySet[LicenceImportRow]:
    """The rows of one report: the applied run's once applied, else the dry run's (by default)."""
    if applied is None:
        applied = licence_import.report_is_applied
    return LicenceImportRow.objects.filter(licence_import=licence_import, applied=applied).order_by(
        "row_number"
    )
