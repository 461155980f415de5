"""A manifest CSV import interrupted (its worker killed) goes on from its saved progress when the queue
runs it again (fogcontrol/core/queue.py, `requeue_stuck`): every row is submitted once.

Each chunk of rows is one transaction that also saves its rows' problems and the import's counts
(`rows_total` is then the number of rows whose outcome is committed). The count is saved only if
it is still the one the chunk started from (`chunk_committed`), so two runs of one import never
both commit the same rows. A real run interrupted resumes after `rows_total` rows, and the report's
lines for those rows are written again from what was stored (`replayed_report_lines`): a rejected
row from its problems, an accepted one from the manifest it made. A dry run saves nothing but its
problems, so it simply starts again.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Iterator

from django.db import DatabaseError

from fogcontrol.servicing.models import ManifestImport

COUNTERS = ("rows_total", "rows_accepted", "rows_rejected", "rows_flagged")


class ImportRunOverlap(DatabaseError):
    """Another run of the same import committed rows meanwhile: this run stops (its chunk rolls back)."""


def restart_point(record: ManifestImport) -> int:
    """How many rows of an import left running to skip (0: start again from the first row, after
    clearing what a dry run wrote). Call in the run's first transaction."""
    if record.dry_run or record.rows_total == 0:
        record.problems.all().delete()
        for name in COUNTERS:
            setattr(record, name, 0)
        ManifestImport.objects.filter(pk=record.pk).update(**dict.fromkeys(COUNTERS, 0))
        return 0
    return record.rows_total


def chunk_committed(record: ManifestImport, *, rows_before: int) -> None:
    """Save the import's counts at the end of a chunk's transaction, if no other run moved them."""
    saved = ManifestImport.objects.filter(pk=record.pk, rows_total=rows_before).update(
        **{name: getattr(record, name) for name in COUNTERS}
    )
    if not saved:
        raise ImportRunOverlap(f"Another run of import {record.pk} went past row {rows_before}.")


def replayed_report_lines(
    record: ManifestImport, skipped: Iterable[tuple[int, dict]], *, chunk: int
) -> Iterator[list]:
    """The report's lines for the rows a run interrupted had committed, in order."""
    manifests = record.manifests.order_by("pk").prefetch_related("flags").iterator(chunk_size=chunk)
    rows = iter(skipped)
    while batch := list(itertools.islice(rows, chunk)):
        problems: dict[int, list] = defaultdict(list)
        for problem in record.problems.filter(
            row_number__gte=batch[0][0], row_number__lte=batch[-1][0]
        ).order_by("pk"):
            problems[problem.row_number].append(problem)
        for number, row in batch:
            manifest_number = row.get("manifest_number") or ""
            if number in problems:
                text = "; ".join(
                    f"{p.field}: {p.message}" if p.field else p.message for p in problems[number]
                )
                yield [number, manifest_number, "rejected", "", "", text]
                continue
            manifest = next(manifests)
            flags = "; ".join(flag.code for flag in sorted(manifest.flags.all(), key=lambda f: f.pk))
            yield [number, manifest_number, "accepted", manifest.pk, flags, ""]
