"""The service state of many devices at once (D4, E1-E4): the nightly sweep's first run on a program.

``device_state_refresh`` reads one device's history in two queries, judges it with the rules and
writes its state row: about five queries a device, 64 s for the 8,881 devices of a 10,000-FSE town
(issue 16). ``device_states_create_missing`` does the same for every device without a state, a
batch at a time, in a fixed number of queries per batch:

- the batch's devices (one SELECT, keyset by id);
- their recent effective manifests and readings, bounded per device exactly as ``device_events``
  bounds them (``HISTORY_MANIFESTS`` and ``HISTORY_READINGS``, newest first), with a window
  function, and their open requirements (three SELECTs);
- the same rules functions (``snapshot_from_events``, ``state_values``) in Python, device by
  device;
- one INSERT of the states.

Everything is read as plain rows (``values_list``), ordered by the database, and the states are
written as rows of values (one ``executemany``, each value prepared by its field as ``bulk_create``
prepares it): building and saving model instances was a third of the step's time (issue 16).

The state is derived data, not a record: like ``device_state_refresh``, it is not audited.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from itertools import chain, repeat
from operator import itemgetter
from typing import NamedTuple

from django.db.models import F, Window
from django.db.models.functions import Coalesce, RowNumber
from django.db.models.sql.constants import MULTI
from django.utils import timezone

from fogcontrol.core.collector import collector_paused
from fogcontrol.core.set_sql import insert_values
from fogcontrol.core.sweep import pages_by_key
from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.rules.servicing_rules import ServiceEvent
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.models import DeviceServiceState, Manifest, ServiceRequirement, SludgeReading
from fogcontrol.servicing.services.state import (
    HISTORY_MANIFESTS,
    HISTORY_READINGS,
    snapshot_from_events,
    state_values,
)

# Devices whose state one batch creates together.
STATE_BATCH = 1000
# Rows fetched at a time from a batch's history (Django's default is 100).
FETCH_CHUNK = 2000


class _Device(NamedTuple):
    """What ``snapshot_from_events`` reads of a device, as one row."""

    pk: int
    kind: str
    assigned_frequency_days: int | None
    total_design_depth_in: object


def _ranked(queryset, *, order_by, bound: int):
    """The newest ``bound`` rows of each device in ``queryset`` (a window per device), each
    device's rows newest first: ``newest`` numbers them 1, 2, ... in the window's order.

    Ordered by the window's own keys (``order_by`` is a total order: it ends with the id), not by
    ``newest``: the same order, but one PostgreSQL reads off the window as it comes, where ordering
    by the row number made it sort every row of the batch again (issue 16)."""
    return (
        queryset.annotate(newest=Window(RowNumber(), partition_by=[F("device_id")], order_by=order_by))
        .filter(newest__lte=bound)
        .order_by("device_id", *order_by)
    )


def _undeclared(date_field: str) -> Coalesce:
    """The date column as an expression, with the same value and output field.

    On SQLite a column read as it is keeps its declared type, and Python's ``sqlite3`` then parses
    the day of every row itself (Django registers that converter), before ``_columns`` can convert
    each distinct day once: 22,600 parses at 1,000 FSEs, 10 ms of the step (issue 16). An
    expression has no declared type: the text comes back, and ``_columns`` makes each distinct day
    a date with Django's own converter. The same SQL on PostgreSQL returns the date itself."""
    return Coalesce(date_field, date_field)


def _columns(queryset, width: int) -> list[list]:
    """The columns of ``queryset.values_list(...)`` (``width`` of them), each distinct database value
    converted once.

    The compiler's converters (``SQLCompiler.results_iter``: on SQLite, a depth comes back as a
    float to be made a ``Decimal`` of the field's places) are applied as Django applies them, but
    once per column and distinct value (of its type too: 1 and 1.0 stay apart), a column at a
    time: a program's depths and days repeat, and converting every one again, row by row, was a
    sixth of the step (issue 16). Fetched in large chunks: the batch is held whole anyway."""
    compiler = queryset.query.get_compiler(queryset.db)
    rows = list(chain.from_iterable(compiler.execute_sql(MULTI, chunk_size=FETCH_CHUNK)))
    # Not zip(*rows): an iterator per row at once would set off a full pass of the garbage collector.
    columns = [list(map(itemgetter(index), rows)) for index in range(width)]
    expressions = [selected[0] for selected in compiler.select[: compiler.col_count]]
    for index, (functions, expression) in compiler.get_converters(expressions).items():
        column, converted = columns[index], {}
        if len(set(map(type, column)) - {type(None)}) <= 1:
            # One type (and None): equal values convert alike, so the value alone is the key and no
            # (type, value) pair is made a row: a third of the conversions' time (issue 16).
            for value in set(column):
                key = value
                for function in functions:
                    value = function(value, expression, compiler.connection)
                converted[key] = value
            columns[index] = list(map(converted.__getitem__, column))
            continue
        # The keys are made as they are read, never kept: 22,000 tuples held at once set off the
        # garbage collector's full passes, which cost more than the conversions.
        for key in set(zip(map(type, column), column, strict=True)):
            value = key[1]
            for function in functions:
                value = function(value, expression, compiler.connection)
            converted[key] = value
        columns[index] = list(map(converted.__getitem__, zip(map(type, column), column, strict=True)))
    return columns


def _spans(device_ids: list[int]) -> dict[int, tuple[int, int]]:
    """Where each device's rows lie in columns ordered by device: (first, past the last)."""
    spans, at = {}, 0
    for device_id, count in Counter(device_ids).items():  # in order of first appearance
        spans[device_id] = (at, at + count)
        at += count
    return spans


class _BatchEvents:
    """A batch's manifests and readings as columns, each device's events made when it is judged.

    Not every event of the batch made at once and held: a named tuple is a tuple subclass, which the
    garbage collector never stops tracking (it lets go only of plain tuples of atoms), so the
    batch's 22,600 events at 1,000 FSEs outlived its young collections and set off a full pass over
    the whole process in every batch, 50 ms of a 200 ms step (issue 16). Columns of atoms are one
    object each to the collector, and a device's events are freed once it is judged."""

    def __init__(self, manifests: list[list], readings: list[list]) -> None:
        device, _, *self._manifests = manifests  # day, full pump-out, FOG, solids
        self._manifest_spans = _spans(device)
        device, *self._readings = readings  # day, FOG, solids, source
        self._reading_spans = _spans(device)

    def of(self, device_id: int) -> list[ServiceEvent]:
        """The device's events as ``device_events`` lists them: manifests newest first, then
        readings newest first."""
        events: list[ServiceEvent] = []
        if device_id in self._manifest_spans:
            first, stop = self._manifest_spans[device_id]
            on, full, fog, solids = (column[first:stop] for column in self._manifests)
            events.extend(map(ServiceEvent, on, full, fog, solids, repeat("manifest")))
        if device_id in self._reading_spans:
            first, stop = self._reading_spans[device_id]
            on, fog, solids, source = (column[first:stop] for column in self._readings)
            events.extend(map(ServiceEvent, on, repeat(False), fog, solids, source))
        return events


def _histories(ids: list[int], *, today) -> tuple[_BatchEvents, dict, dict]:
    """The devices' events (``_BatchEvents.of``: as ``device_events`` lists them) and, per device
    id, its last manifest id and its open requirement kinds. Three queries whatever the number of
    devices."""
    manifests = (
        _ranked(
            Manifest.objects.effective().filter(device_id__in=ids, service_date__lte=today),
            order_by=[F("serviced_at").desc(), F("pk").desc()],
            bound=HISTORY_MANIFESTS,
        )
        .annotate(day=_undeclared("service_date"))
        .values_list("device_id", "pk", "day", "full_pumpout", "fog_depth_in", "solids_depth_in")
    )
    readings = (
        _ranked(
            SludgeReading.objects.filter(device_id__in=ids, taken_on__lte=today),
            order_by=[F("taken_on").desc(), F("pk").desc()],
            bound=HISTORY_READINGS,
        )
        .annotate(day=_undeclared("taken_on"))
        .values_list("device_id", "day", "fog_depth_in", "solids_depth_in", "source")
    )
    manifest_columns = _columns(manifests, 6)
    device, pk = manifest_columns[:2]
    # Each device's manifests come newest first: its first row is its last manifest.
    last_manifest = dict(zip(reversed(device), reversed(pk), strict=True))
    events = _BatchEvents(manifest_columns, _columns(readings, 5))
    open_kinds: dict[int, set[str]] = defaultdict(set)
    for device_id, kind in ServiceRequirement.objects.filter(
        device_id__in=ids, status=ServiceRequirement.Status.OPEN
    ).values_list("device_id", "kind"):
        open_kinds[device_id].add(kind)
    return events, last_manifest, open_kinds


def _insert_states(columns: list[str], rows: list[list]) -> None:
    """One INSERT of the state rows (values of ``columns``, field names), from one parameter
    (``core.set_sql.insert_values``: each distinct value prepared once). A state a writer made
    meanwhile (a manifest saved during the sweep) is newer: it is kept (the conflict is skipped).
    Not ``executemany``: on PostgreSQL that sent a statement a row, 0.2 s a batch of 1,000."""
    insert_values(
        DeviceServiceState, [dict(zip(columns, row, strict=True)) for row in rows], skip_conflicts=True
    )


def device_states_create_missing(*, ctx: ProgramContext) -> int:
    """Create the state of every device that has none, as ``device_state_refresh`` would, a batch
    at a time (module docstring). Returns how many were created."""
    today = ctx.today()
    missing = (
        GreaseControlDevice.objects.filter(service_state__isnull=True)
        .order_by("pk")
        .values_list("pk", "kind", "assigned_frequency_days", "total_design_depth_in")
    )
    created = 0
    for page in pages_by_key(missing, STATE_BATCH, key=itemgetter(0)):
        # A batch's objects are freed by their reference counts as it goes; the collector's full
        # passes would walk Django's whole heap (core.collector, as the manifest ingest's chunks).
        with collector_paused():
            created += _create_batch([_Device(*row) for row in page], ctx=ctx, today=today)
    return created


def _create_batch(devices: list[_Device], *, ctx: ProgramContext, today: dt.date) -> int:
    events, last_manifest, open_kinds = _histories([device.pk for device in devices], today=today)
    # The fields the rules do not set: the E8 exception (none recorded yet) and when.
    rest = {"e8_exception": DeviceServiceState._meta.get_field("e8_exception").get_default()}
    rest["refreshed_at"] = timezone.now()
    columns, rows = [], []
    for device in devices:
        snap = snapshot_from_events(  # the row stores no working: none is said (issue 16)
            device,
            events.of(device.pk),
            last_manifest.get(device.pk),
            on=today,
            ctx=ctx,
            worded=False,
        )
        values = state_values(snap, today=today, open_kinds=open_kinds.get(device.pk, set()))
        columns = columns or ["device_id", *values, *rest]
        rows.append([device.pk, *values.values(), *rest.values()])
    _insert_states(columns, rows)
    return len(rows)
