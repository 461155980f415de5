"""Benchmark: PDF throughput (issue #16): permits and notices rendered per second in a batch.

    .venv/bin/python bench/pdf_batch.py [--count 1000] [--establishments 300]

Builds the demo town (registry and permits) in a throwaway SQLite database (or DATABASE_URL: use a
scratch database), issues ``--count`` letters to go by certified mail (the notices app's
``general_letter``, as the certified mail run prints them), then renders, with WeasyPrint:

- ``--count`` permit PDFs (``permits.pdf.permit_pdf``), cycling over the demo's permit versions;
- ``--count`` notice PDFs one at a time (``notices.pdf.document_pdf``, what a document's page serves);
- the same ``--count`` notices as one print batch through the worker's code path
  (``print_batch_start`` then the ``render_print_batch`` task, run at once here): one PDF, each
  letter on its own pages, its progress written after each letter.

Prints documents per second (wall clock) and CPU time per document. No timing is asserted anywhere.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from itertools import cycle, islice
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _timed(label: str, count: int, call, rows: bool = False) -> None:
    wall, cpu = time.perf_counter(), time.process_time()
    size = call()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if rows:
        from bench.rows import emit

        emit(f"PDF {label.split(' (')[0]}, CPU", count, count / cpu, "docs/s", lower_is_better=False)
    print(
        f"{label:<44} {count:>6} {wall:>9.1f} {count / wall:>10.2f} {cpu / count * 1000:>12.0f} {size / 1e6:>9.1f}",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000, help="documents of each kind (default 1,000)")
    parser.add_argument("--establishments", type=int, default=300, help="size of the demo town")
    parser.add_argument("--json", action="store_true", help="Also print BENCH-ROW lines (bench/rows.py).")
    args = parser.parse_args()

    scratch = tempfile.mkdtemp(prefix="fogcontrol-bench-")
    os.environ.setdefault("FOGCONTROL_DATA_DIR", scratch)
    os.environ.setdefault("FOGCONTROL_TASKS", "immediate")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fogcontrol.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import transaction

    from fogcontrol.demo.run import seed_demo
    from fogcontrol.notices.pdf import document_pdf
    from fogcontrol.notices.services import document_issue, print_batch_start
    from fogcontrol.notices.tasks import render_print_batch
    from fogcontrol.permits.models import PermitVersion
    from fogcontrol.permits.pdf import permit_pdf
    from fogcontrol.registry.models import FoodServiceEstablishment

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    seed_demo(establishments=args.establishments, seed=1, seeders=["fogcontrol.permits.demo.seed"])
    versions = list(PermitVersion.objects.select_related("permit__establishment").order_by("pk"))
    fses = list(FoodServiceEstablishment.objects.order_by("pk")[: args.count])
    letters = []
    with transaction.atomic():
        for n, fse in enumerate(islice(cycle(fses), args.count)):
            letters.append(
                document_issue(
                    acting_user="bench",
                    key="general_letter",
                    establishment=fse,
                    addressee=f"{fse.business_name}\n{fse.site_address}",
                    context={"business_name": fse.business_name,
                             "body_text": "Your permit renewal is due: please apply before it expires."},
                    service_method="certified_mail",
                    served_on=None,
                    article_number=f"9407 1000 {n:06d}",
                )
            )  # fmt: skip
    print(
        f"Set-up: {args.establishments} establishments, {len(versions)} permit versions, "
        f"{len(letters)} letters issued in {time.perf_counter() - started:.0f} s.\n"
    )
    print(f"{'what':<44} {'docs':>6} {'wall s':>9} {'docs/s':>10} {'cpu ms/doc':>12} {'MB out':>9}")

    def permits():
        return sum(len(permit_pdf(version)) for version in islice(cycle(versions), args.count))

    def notices_one_by_one():
        return sum(len(document_pdf(letter)) for letter in letters)

    def notices_batch():
        batch = print_batch_start(acting_user="bench", documents=letters)
        render_print_batch.enqueue(batch_id=batch.pk)  # the worker's task, run at once
        batch.refresh_from_db()
        assert batch.status == "done" and batch.rendered == len(letters), (batch.status, batch.error)
        return batch.file.size

    document_pdf(letters[0])  # warm up: WeasyPrint's import and fonts
    _timed("permits, one PDF each (permit_pdf)", args.count, permits, args.json)
    _timed("notices, one PDF each (document_pdf)", args.count, notices_one_by_one, args.json)
    _timed("notices, one print batch (worker task)", args.count, notices_batch, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
