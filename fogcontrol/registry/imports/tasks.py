"""Background work: a licence import runs as a task so that a large export never holds a request."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django_tasks import task

from fogcontrol.registry.imports.services import ImportStateError, licence_import_run
from fogcontrol.registry.models import LicenceImport


@task()
def run_licence_import(
    *, licence_import_id: int, apply: bool, acting_user_id: int | None, acting_label: str
) -> dict:
    """Run a queued import (idempotent: a repeated run rewrites the same report)."""
    licence_import = LicenceImport.objects.get(pk=licence_import_id)
    acting_user = acting_label
    if acting_user_id is not None:
        acting_user = get_user_model().objects.get(pk=acting_user_id)
    try:
        licence_import = licence_import_run(
            licence_import=licence_import, acting_user=acting_user, apply=apply
        )
    except (ImportStateError, PermissionDenied) as error:
        LicenceImport.objects.filter(pk=licence_import_id).update(
            status=LicenceImport.Status.FAILED, error=f"The import did not run: {error}"
        )
        return {"status": LicenceImport.Status.FAILED, "error": str(error)}
    return {"status": licence_import.status, "counts": licence_import.counts}
