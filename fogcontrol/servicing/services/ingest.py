"""The set-based manifest ingest (issue 16): a chunk of manifests in a fixed number of queries.

The CSV import and the API batch hand their rows here; each row is judged exactly as
``manifest_submit`` judges it on its own, in the order given, each on the history before it
(the chunk's earlier rows included), with the same functions:

1. **read** everything the chunk needs at once (``ingest_reads.chunk_reads``): devices, haulers,
   vehicles, facilities, the numbers on record, each device's recent history, open requirements
   and state row, the same trucks' manifests around the chunk's times;
2. **judge** each row in Python: ``manifest_validate`` (its cache filled, so it asks nothing),
   the device's snapshot (``snapshot_from_events``), the E6/E8 consequences and the review flags
   (``judgement.manifest_judge``, as every path judges a manifest) and the requirements they open
   or meet (``requirement_plan``);
3. **write** in bulk: the manifests on the keyed chain in one statement (``record_append_chunk``,
   the triggers kept), flags, requirements opened and closed, the audit entries (one INSERT per
   action) and every device's state, upserted in one statement (``core.set_sql``).

A row this cannot judge from what it read goes through ``manifest_submit`` itself, in its turn:
what was judged before it is written first, and the rows after it are read again. These are the
rare rows: attachments, a number another manifest already carries (F1, F7 shared-number flags),
a hauler, vehicle or facility not read with the chunk, or a device whose history window is full
and does not reach back far enough for the flags (a manifest dated before the device's newest
``HISTORY_MANIFESTS`` manifests, or before its newest readings). So the queries a chunk takes do
not grow with its rows, and the outcomes are the row path's.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections import defaultdict

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone

from fogcontrol.audit.models import AuditEntry
from fogcontrol.audit.services import audit_entry_values, snapshot
from fogcontrol.core.collector import collector_paused
from fogcontrol.core.permissions import require_role
from fogcontrol.core.record_chunk import record_append_chunk
from fogcontrol.core.records import canonical_submission
from fogcontrol.core.set_sql import insert_rows, insert_values, update_rows, upsert_values
from fogcontrol.rules.servicing_rules import ServiceEvent
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.models import DeviceServiceState, Manifest, ManifestFlag, ServiceRequirement
from fogcontrol.servicing.permissions import MANIFEST_SUBMITTERS
from fogcontrol.servicing.services.ingest_reads import ChunkReads, chunk_reads
from fogcontrol.servicing.services.judgement import ManifestFacts, manifest_judge
from fogcontrol.servicing.services.manifest_validation import ManifestSubmission, manifest_validate
from fogcontrol.servicing.services.manifests import manifest_submit
from fogcontrol.servicing.services.state import (
    HISTORY_MANIFESTS,
    HISTORY_READINGS,
    MET_BY_SAME_VISIT,
    met_by_pumpout_note,
    requirement_plan,
    snapshot_from_events,
    state_values,
)

Kind = ServiceRequirement.Kind


@dataclasses.dataclass
class IngestRow:
    submission: ManifestSubmission
    raw: dict | None = None


@dataclasses.dataclass
class IngestResult:
    """A row's outcome: the stored manifest (with ``flag_list``), or the reasons it was refused."""

    manifest: Manifest | None = None
    errors: dict[str, list[str]] | None = None

    @property
    def accepted(self) -> bool:
        return self.manifest is not None


class _Odd(Exception):
    """This row goes through ``manifest_submit`` (module docstring)."""


def _errors(exc: ValidationError) -> dict[str, list[str]]:
    return exc.message_dict if hasattr(exc, "error_dict") else {"__all__": exc.messages}


def manifests_ingest(
    *, acting_user, rows: list[IngestRow], channel: str, source_import=None, ctx: ProgramContext | None = None
) -> list[IngestResult]:
    """Submit ``rows`` in order, each accepted or refused on its own as ``manifest_submit`` would.
    Call inside a transaction (the chunk's); a refused row writes nothing."""
    require_role(acting_user, MANIFEST_SUBMITTERS, "Your role may not submit manifests.")
    ctx = ctx or ProgramContext()
    results: list[IngestResult | None] = [None] * len(rows)
    start = 0
    with collector_paused():  # the chunk's garbage is its own; full passes would walk Django's heap
        while start < len(rows):
            chunk = _Chunk(acting_user=acting_user, ctx=ctx, channel=channel, source_import=source_import)
            odd = chunk.judge(rows, start, results)
            chunk.write()
            if odd is None:
                break
            results[odd] = _one_at_a_time(
                rows[odd], acting_user, ctx, channel, source_import, chunk.reads.cache
            )
            start = odd + 1
    return results


def _one_at_a_time(row: IngestRow, acting_user, ctx, channel, source_import, cache) -> IngestResult:
    try:
        manifest = manifest_submit(
            acting_user=acting_user, submission=row.submission, channel=channel, raw=row.raw,
            source_import=source_import, ctx=ctx, device_cache=cache,
        )  # fmt: skip
    except ValidationError as exc:
        return IngestResult(errors=_errors(exc))
    except PermissionDenied as exc:
        return IngestResult(errors={"__all__": [str(exc)]})
    return IngestResult(manifest=manifest)


@dataclasses.dataclass
class _Device:
    device: object
    manifests: list  # newest first: (serviced_at, order key, manifest)
    readings: list  # newest first
    open: dict  # kind -> [ServiceRequirement], as the row path finds them (newest first)
    floor: object  # the oldest day of a full history window (None: the window holds it all)
    readings_full: bool
    e8_exception: str = ""
    snapshot: object = None  # the rules' verdict after the device's last row in the chunk


class _Chunk:
    def __init__(self, *, acting_user, ctx, channel, source_import):
        self.acting_user, self.ctx, self.channel, self.source_import = (
            acting_user,
            ctx,
            channel,
            source_import,
        )
        self.reads: ChunkReads | None = None
        self.devices: dict[int, _Device] = {}
        self.manifests: list[Manifest] = []
        self.flags: list[tuple[Manifest, list]] = []
        self.opened: list[ServiceRequirement] = []
        self.closings: list[tuple[ServiceRequirement, Manifest, str]] = []
        self.trucks: dict[tuple, list[Manifest]] = defaultdict(list)
        self._sequence = 0

    # --- judging -------------------------------------------------------------------------------

    def judge(self, rows: list[IngestRow], start: int, results: list) -> int | None:
        """Judge rows from ``start`` on until one is odd; returns its index (None: all judged)."""
        self.reads = chunk_reads(
            [r.submission for r in rows[start:]], acting_user=self.acting_user, ctx=self.ctx
        )
        for truck in self.reads.trucks:
            self.trucks[(truck.hauler_id, truck.vehicle_plate.upper())].append(truck)
        for index in range(start, len(rows)):
            try:
                results[index] = self._row(rows[index])
            except _Odd:
                return index
        return None

    def _held(self, device) -> _Device:
        if device.pk not in self.devices:
            manifests = self.reads.manifests.get(device.pk, [])
            readings = self.reads.readings.get(device.pk, [])
            opened = defaultdict(list)
            for requirement in sorted(
                self.reads.requirements.get(device.pk, []), key=lambda r: (r.opened_on, r.pk), reverse=True
            ):
                opened[requirement.kind].append(requirement)
            self.devices[device.pk] = _Device(
                device=device,
                manifests=[(m.serviced_at, (0, m.pk), m) for m in manifests],
                floor=manifests[-1].service_date if len(manifests) >= HISTORY_MANIFESTS else None,
                readings=list(readings),
                open=opened,
                readings_full=len(readings) >= HISTORY_READINGS,
                e8_exception=self.reads.e8_exceptions.get(device.pk, ""),
            )
        return self.devices[device.pk]

    def _row(self, row: IngestRow) -> IngestResult:
        submission = row.submission
        if submission.attachments:
            raise _Odd
        try:
            resolved = manifest_validate(
                submission, acting_user=self.acting_user, ctx=self.ctx, device_cache=self.reads.cache,
                numbers_on_record=self.reads.numbers,
            )  # fmt: skip
        except ValidationError as exc:
            return IngestResult(errors=_errors(exc))
        fields = resolved.fields
        hauler = fields["hauler"]
        if resolved.number_shared or (hauler is not None and hauler.pk not in self.reads.hauler_ids):
            raise _Odd  # F1, F7: the shared-number flags look up the other manifests
        fields.pop("_attachments")
        manifest = Manifest(
            channel=self.channel, source_import=self.source_import,
            submission=canonical_submission(row.raw if row.raw is not None else {}), **fields,
        )  # fmt: skip
        held = self._held(resolved.device)
        ruleset = self.ctx.ruleset(manifest.service_date)
        previous, over = self._before(held, manifest, ruleset)
        conflict = self._same_truck_elsewhere(manifest, ruleset.manifest_vehicle_conflict_minutes)

        # From here on the row is judged: the chunk holds it.
        if hauler is not None:
            key = (hauler.pk, manifest.manifest_number)
            self.reads.numbers[key] = self.reads.numbers.get(key, False) or manifest.hauler_attested
        self._sequence += 1
        held.manifests.append((manifest.serviced_at, (1, self._sequence), manifest))
        held.manifests.sort(key=lambda item: (item[0], item[1]), reverse=True)
        self.manifests.append(manifest)
        if manifest.vehicle_plate:
            self.trucks[(manifest.hauler_id, manifest.vehicle_plate.upper())].append(manifest)

        e8_already_open = bool(held.open.get(Kind.INTERCEPTOR_PLANS))
        snap = held.snapshot = self._snapshot(held)
        judged = manifest_judge(
            manifest, device=held.device, frequency_days=snap.status.frequency_days,
            recommendation=snap.recommendation, e8_exception=held.e8_exception, ratio=resolved.ratio,
            facts=ManifestFacts(conflict=conflict, previous_full_pumpout_on=previous, over_limit_reading=over),
            e8_already_open=e8_already_open, ctx=self.ctx,
        )  # fmt: skip
        consequences, flags = judged.consequences, judged.flags
        self._carry_out(held, consequences, manifest)
        self.flags.append((manifest, flags))
        manifest.flag_list = flags
        manifest.consequences = consequences
        return IngestResult(manifest=manifest)

    def _before(self, held: _Device, manifest: Manifest, ruleset):
        """The last effective full pump-out before this one, and the latest reading over the limit
        since then (``review_flags``), from the window; odd when the window may not reach."""
        earlier = [
            m.service_date
            for _, _, m in held.manifests
            if m.full_pumpout and m.service_date < manifest.service_date
        ]
        previous = max(earlier, default=None)
        if held.floor is not None and (previous is None or previous < held.floor):
            raise _Odd  # an older pump-out may lie beyond the window
        over, candidates = None, []
        for reading in held.readings:
            if (
                reading.fill_ratio is not None
                and reading.fill_ratio > ruleset.fill_limit_ratio
                and reading.taken_on <= manifest.service_date
                and (previous is None or reading.taken_on > previous)
            ):
                candidates.append(reading)
        if candidates:
            over = max(candidates, key=lambda r: (r.taken_on, r.pk))
        elif held.readings_full and (previous is None or held.readings[-1].taken_on > previous):
            raise _Odd
        return previous, over

    def _same_truck_elsewhere(self, manifest: Manifest, minutes: int) -> Manifest | None:
        if not manifest.vehicle_plate:
            return None
        window = dt.timedelta(minutes=minutes)
        found = None
        for other in self.trucks.get((manifest.hauler_id, manifest.vehicle_plate.upper()), ()):
            if (
                manifest.serviced_at - window < other.serviced_at < manifest.serviced_at + window
                and other.device_id != manifest.device_id
                and (found is None or other.serviced_at < found.serviced_at)
            ):
                found = other
        return found

    def _snapshot(self, held: _Device):
        today = self.ctx.today()
        manifests = [m for _, _, m in held.manifests if m.service_date <= today][:HISTORY_MANIFESTS]
        events = [
            ServiceEvent(m.service_date, m.full_pumpout, m.fog_depth_in, m.solids_depth_in, "manifest")
            for m in manifests
        ]
        events += [
            ServiceEvent(r.taken_on, False, r.fog_depth_in, r.solids_depth_in, r.source)
            for r in held.readings[:HISTORY_READINGS]
        ]
        last_manifest_id = manifests[0].pk if manifests else None  # set once the chunk is written
        # Unworded: the chunk keeps the snapshot's numbers (the state row, the judgement's frequency
        # and recommendation), never its working; wording it was a quarter of a row's CPU.
        return snapshot_from_events(
            held.device, events, last_manifest_id, on=today, ctx=self.ctx, worded=False
        )

    def _carry_out(self, held: _Device, consequences, manifest: Manifest) -> None:
        """What ``apply_consequences`` writes, kept until ``write()``."""
        open_kinds = {kind for kind, found in held.open.items() if found}
        plan = requirement_plan(consequences, open_kinds=open_kinds, pumped=manifest.full_pumpout)
        if plan.meets_open_immediate:
            for requirement in held.open.pop(Kind.IMMEDIATE_SERVICE, []):
                self.closings.append((requirement, manifest, met_by_pumpout_note(manifest)))
        for kind in plan.opens:
            if held.open.get(kind):
                requirement = held.open[kind][0]
            else:
                requirement = ServiceRequirement(
                    device=held.device, kind=kind, provision=ServiceRequirement.PROVISIONS[kind],
                    opened_on=manifest.service_date,
                    due_on=manifest.service_date if kind == Kind.IMMEDIATE_SERVICE else None,
                    opened_by_manifest=manifest, proposed_frequency_days=consequences.proposed_frequency_days,
                    proposed_effective_on=consequences.frequency_change_effective_on,
                    explanation=consequences.explanation.as_record(),
                )  # fmt: skip
                held.open[kind] = [requirement]
                self.opened.append(requirement)
            if kind == Kind.IMMEDIATE_SERVICE and plan.met_at_once:
                held.open[kind].remove(requirement)
                self.closings.append((requirement, manifest, MET_BY_SAME_VISIT))

    # --- writing -------------------------------------------------------------------------------

    def write(self) -> None:
        """Everything judged, in bulk: a fixed number of statements whatever the chunk's size."""
        if not self.manifests:
            return
        acting = self.acting_user
        with transaction.atomic():
            record_append_chunk(self.manifests, acting_user=acting)
            # Flags, audit entries and states are written and never used as instances: value lists.
            flags = [
                {"manifest_id": m.pk, "code": f.code, "provision": f.provision, "message": f.message}
                for m, found in self.flags
                for f in found
            ]
            insert_values(ManifestFlag, flags)
            insert_rows(self.opened)
            opened_after = [(r, None, snapshot(r)) for r in self.opened]
            closed_at, closes = timezone.now(), []
            for requirement, manifest, note in self.closings:
                before = snapshot(requirement)
                requirement.status = ServiceRequirement.Status.MET
                requirement.closed_at, requirement.closed_by_manifest, requirement.close_note = (
                    closed_at,
                    manifest,
                    note,
                )
                closes.append((requirement, before, snapshot(requirement)))
            update_rows(
                [r for r, _, _ in closes], ["status", "closed_at", "closed_by_manifest", "close_note"]
            )
            entries = audit_entry_values(
                acting_user=acting,
                action="manifest.submit",
                changes=[(m, None, snapshot(m)) for m in self.manifests],
            )
            entries += audit_entry_values(
                acting_user=acting, action="service_requirement.open", changes=opened_after
            )
            entries += audit_entry_values(
                acting_user=acting, action="service_requirement.close", changes=closes
            )
            insert_values(AuditEntry, entries)
            self._write_states()

    def _write_states(self) -> None:
        today, now = self.ctx.today(), timezone.now()
        states, fields = [], []
        for held in self.devices.values():
            if held.snapshot is None:  # read for a row that went the row path: that path refreshes it
                continue
            open_kinds = {kind for kind, found in held.open.items() if found}
            newest = next((m.pk for _, _, m in held.manifests if m.service_date <= today), None)
            snap = dataclasses.replace(held.snapshot, last_manifest_id=newest)  # its id, now written
            values = state_values(snap, today=today, open_kinds=open_kinds)
            states.append(
                {
                    "device_id": held.device.pk,
                    "refreshed_at": now,
                    "e8_exception": held.e8_exception,
                    **values,
                }
            )
            fields = [*values, "refreshed_at"]
        upsert_values(DeviceServiceState, states, unique="device", update_fields=fields)
