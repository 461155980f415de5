"""Two licence-import uploads at once, through the API, against a file database (issue 15, finding 1).

Run by test_uploads_and_worker.py in a process of its own (`python -m …upload_driver`), with
FOGCONTROL_DATA_DIR pointing at a copy of the test database and FOGCONTROL_SQLITE_TIMEOUT short.
Opening each workbook is slowed down (as a 3 MB workbook is), so that an upload which held the
write lock while reading would make the other upload, and the worker, wait past the timeout.
Prints one JSON line: the two responses, and each import's status once the worker ran its dry run.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fogcontrol.settings")

import django  # noqa: E402

django.setup()

import openpyxl  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from fogcontrol.core.roles import Role  # noqa: E402
from fogcontrol.registry.imports.testing import HEADER, xlsx_upload  # noqa: E402
from fogcontrol.registry.models import LicenceImport  # noqa: E402
from fogcontrol.testing.factories import UserFactory  # noqa: E402

READING_SECONDS = float(os.environ.get("DRIVER_READING_SECONDS", "2"))
WAIT_FOR_WORKER_SECONDS = 60


def _slowly(load_workbook):
    def load(*args, **kwargs):
        time.sleep(READING_SECONDS)
        return load_workbook(*args, **kwargs)

    return load


def main() -> None:
    openpyxl.load_workbook = _slowly(openpyxl.load_workbook)
    manager = UserFactory(username="concurrent-manager", role=Role.FOG_MANAGER)
    start = threading.Barrier(2)
    responses: list[dict] = [{}, {}]

    def upload(index: int) -> None:
        client = APIClient()
        client.raise_request_exception = False  # a server error is an answer to record, not a crash
        client.force_authenticate(manager)
        table = [HEADER, [f"CC-{index}", f"Concurrent Diner {index}", f"{index} Main St", "", "", ""]]
        start.wait()
        response = client.post("/api/v1/imports/licences/", {"file": xlsx_upload(table)}, format="multipart")
        body = response.content.decode(errors="replace")
        responses[index] = {"status": response.status_code, "body": body[:2000]}

    threads = [threading.Thread(target=upload, args=(index,)) for index in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    deadline = time.monotonic() + WAIT_FOR_WORKER_SECONDS
    imports: list[str] = []
    while time.monotonic() < deadline:
        imports = list(LicenceImport.objects.order_by("pk").values_list("status", flat=True))
        if imports and all(status in ("checked", "failed") for status in imports):
            break
        time.sleep(0.25)
    print(json.dumps({"responses": responses, "imports": imports}))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
