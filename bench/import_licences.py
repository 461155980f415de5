"""Benchmark: import the full Austin export (25,393 rows) - time and peak memory.

    .venv/bin/python bench/import_licences.py [FILE] [--memory] [--keep-db]

Runs in a throwaway data folder (SQLite unless DATABASE_URL is set): a dry run, the real run,
then a re-import of the same file (everything unchanged). With --memory, Python's peak
allocation during each phase is measured with tracemalloc (which slows the run about 2x;
times are then not comparable). The file is read as a stream, so the peak should not grow
with the file: compare with the file's size, printed first.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_FILE = (
    ROOT.parent / "shared/research_data/austin_food_inspections/Food_Establishment_Inspection_Scores.csv"
)
MAPPING = {"licence_number": "Facility ID", "business_name": "Restaurant Name", "site_address": "Address"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(DEFAULT_FILE))
    parser.add_argument("--memory", action="store_true", help="measure peak allocation with tracemalloc")
    parser.add_argument("--json", action="store_true", help="Also print BENCH-ROW lines (bench/rows.py).")
    args = parser.parse_args()
    path = Path(args.file)
    if not path.is_file():
        print(f"{path} not found", file=sys.stderr)
        return 1

    scratch = tempfile.mkdtemp(prefix="fogcontrol-bench-")
    os.environ.setdefault("FOGCONTROL_DATA_DIR", scratch)
    os.environ.setdefault("FOGCONTROL_MEDIA_DIR", os.path.join(scratch, "media"))
    os.environ.setdefault("FOGCONTROL_TASKS", "immediate")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fogcontrol.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.files.uploadedfile import UploadedFile
    from django.core.management import call_command

    from fogcontrol.registry.imports import services
    from fogcontrol.registry.models import FoodServiceEstablishment

    call_command("migrate", verbosity=0)
    print(
        f"file: {path.name}, {path.stat().st_size / 1048576:.1f} MB; database: {django.db.connection.vendor}"
    )

    def phase(label: str, apply: bool) -> None:
        with path.open("rb") as handle:
            upload = UploadedFile(handle, name=path.name, content_type="text/csv", size=path.stat().st_size)
            if args.memory:
                tracemalloc.start()
            started = time.perf_counter()
            licence_import = services.licence_import_upload(acting_user="bench", uploaded_file=upload)
            licence_import = services.licence_import_set_mapping(
                licence_import=licence_import, acting_user="bench", mapping=MAPPING
            )
            licence_import = services.licence_import_run(
                licence_import=licence_import, acting_user="bench", apply=apply
            )
            elapsed = time.perf_counter() - started
            peak = ""
            if args.memory:
                peak = f", peak Python allocation {tracemalloc.get_traced_memory()[1] / 1048576:.1f} MB"
                tracemalloc.stop()
        counts = licence_import.counts
        summary = ", ".join(
            f"{k} {counts[k]}" for k in ("created", "updated", "unchanged", "doubtful", "rejected")
        )
        print(
            f"{label}: {counts['rows']} rows in {elapsed:.1f} s ({counts['rows'] / elapsed:,.0f} rows/s){peak}; {summary}"
        )
        if args.json:
            from bench.rows import emit

            emit(
                f"licence import, {label}",
                counts["rows"],
                counts["rows"] / elapsed,
                "rows/s",
                lower_is_better=False,
            )

    phase("dry run", apply=False)
    phase("apply", apply=True)
    phase("re-import", apply=True)
    print(f"establishments: {FoodServiceEstablishment.objects.count()}")
    print(f"process max RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
