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

The state is derived data, not a record: like ``device_state_refresh``, it is not audited.
"""

from __future__ import annotations

from collections import defaultdict

from django.db.models import F, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

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


def _ranked(queryset, *, order_by, bound: int):
    """The newest ``bound`` rows of each device in ``queryset`` (a window per device)."""
    return queryset.annotate(
        newest=Window(RowNumber(), partition_by=[F("device_id")], order_by=order_by)
    ).filter(newest__lte=bound)


def _histories(ids: list[int], *, today) -> tuple[dict, dict, dict]:
    """Per device id: its events as ``device_events`` lists them, its last manifest id, its open
    requirement kinds. Three queries whatever the number of devices."""
    manifests = _ranked(
        Manifest.objects.effective().filter(device_id__in=ids, service_date__lte=today),
        order_by=[F("serviced_at").desc(), F("pk").desc()],
        bound=HISTORY_MANIFESTS,
    ).values_list("device_id", "pk", "serviced_at", "service_date", "full_pumpout", "fog_depth_in",
                  "solids_depth_in")  # fmt: skip
    readings = _ranked(
        SludgeReading.objects.filter(device_id__in=ids, taken_on__lte=today),
        order_by=[F("taken_on").desc(), F("pk").desc()],
        bound=HISTORY_READINGS,
    ).values_list("device_id", "pk", "taken_on", "fog_depth_in", "solids_depth_in", "source")
    events: dict[int, list[ServiceEvent]] = defaultdict(list)
    last_manifest: dict[int, int] = {}
    for device_id, pk, _, on, full, fog, solids in sorted(
        manifests, key=lambda r: (r[0], r[2], r[1]), reverse=True
    ):
        events[device_id].append(ServiceEvent(on, full, fog, solids, "manifest"))
        last_manifest.setdefault(device_id, pk)
    for device_id, _, on, fog, solids, source in sorted(
        readings, key=lambda r: (r[0], r[2], r[1]), reverse=True
    ):
        events[device_id].append(ServiceEvent(on, False, fog, solids, source))
    open_kinds: dict[int, set[str]] = defaultdict(set)
    for device_id, kind in ServiceRequirement.objects.filter(
        device_id__in=ids, status=ServiceRequirement.Status.OPEN
    ).values_list("device_id", "kind"):
        open_kinds[device_id].add(kind)
    return events, last_manifest, open_kinds


def device_states_create_missing(*, ctx: ProgramContext) -> int:
    """Create the state of every device that has none, as ``device_state_refresh`` would, a batch
    at a time (module docstring). Returns how many were created."""
    today = ctx.today()
    missing = (
        GreaseControlDevice.objects.filter(service_state__isnull=True)
        .only("pk", "kind", "assigned_frequency_days", "total_design_depth_in", "capacity_gallons")
        .order_by("pk")
    )
    created, after = 0, 0
    while True:
        devices = list(missing.filter(pk__gt=after)[:STATE_BATCH])
        if not devices:
            return created
        ids = [device.pk for device in devices]
        events, last_manifest, open_kinds = _histories(ids, today=today)
        now = timezone.now()
        states = []
        for device in devices:
            snap = snapshot_from_events(
                device, events.get(device.pk, []), last_manifest.get(device.pk), on=today, ctx=ctx
            )
            values = state_values(snap, today=today, open_kinds=open_kinds.get(device.pk, set()))
            states.append(DeviceServiceState(device=device, refreshed_at=now, **values))
        # A state a writer made meanwhile (a manifest saved during the sweep) is newer: it is kept.
        DeviceServiceState.objects.bulk_create(states, batch_size=STATE_BATCH, ignore_conflicts=True)
        created += len(states)
        after = ids[-1]
        if len(devices) < STATE_BATCH:
            return created
