"""A service history written at once: many manifests and readings, each judged as if submitted alone.

``manifest_submit`` and ``reading_record`` write one record each, about fifty queries with the
device's state, requirements, flags and audit entries. A history that arrives whole (the demo
town's two years of pump-outs, issue 19) goes through ``ServiceHistoryBatch`` instead:

- each manifest is checked by ``manifest_validate`` and each reading by ``reading_checked``, as the
  services check them;
- the device's snapshot, the E6/E8 consequences, the requirements they open or meet, and the
  review flags come from the functions the services use (``snapshot_from_events``,
  ``judgement.manifest_judge``, ``requirement_plan``), applied to what the batch
  holds so far, in the order given: each record is judged on the history before it, exactly as
  when submitted at that point;
- ``write()`` stores it all in bulk: the manifests on the keyed chain (``record_append_chunk``, one
  statement a chunk of ``CHUNK`` manifests, every trigger firing for every row), the
  readings, requirements (opened, then met) and flags, each device's final state, and one audit
  entry per record and change with the services' action names (``audit_records_bulk``).

A batch loads a history into a program that has none yet: it refuses to start when manifests,
readings or requirements are on record, because the facts it judges by (earlier pump-outs, the
same truck elsewhere, open requirements) would then be partly in the database. It takes no
attachments, corrections or manifests that share a number; those go through ``manifest_submit``.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections import defaultdict
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.utils import timezone

from fogcontrol.audit.services import audit_records_bulk, snapshot
from fogcontrol.core.actors import person
from fogcontrol.core.permissions import require_role
from fogcontrol.core.record_chunk import record_append_chunk
from fogcontrol.core.records import canonical_submission
from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.rules.servicing_rules import ServiceEvent
from fogcontrol.servicing.context import ProgramContext
from fogcontrol.servicing.models import (
    DeviceServiceState,
    Manifest,
    ManifestFlag,
    ServiceRequirement,
    SludgeReading,
)
from fogcontrol.servicing.permissions import MANIFEST_SUBMITTERS
from fogcontrol.servicing.services.judgement import ManifestFacts, manifest_judge
from fogcontrol.servicing.services.manifest_validation import ManifestSubmission, manifest_validate
from fogcontrol.servicing.services.state import (
    HISTORY_MANIFESTS,
    HISTORY_READINGS,
    MET_BY_SAME_VISIT,
    DeviceSnapshot,
    consequences_for,
    met_by_pumpout_note,
    reading_checked,
    requirement_plan,
    snapshot_from_events,
    state_values,
)

Kind = ServiceRequirement.Kind
# Manifests appended to the chain in one statement (``record_append_chunk``); bounds its payload.
CHUNK = 5_000


class HistoryNotEmpty(Exception):
    """A batch starts from a program with no service history on record."""


@dataclasses.dataclass
class _Device:
    """What the batch holds of one device: its records in the order given, its open requirements."""

    device: GreaseControlDevice
    manifests: list[Manifest] = dataclasses.field(default_factory=list)
    readings: list[SludgeReading] = dataclasses.field(default_factory=list)
    open: dict[str, ServiceRequirement] = dataclasses.field(default_factory=dict)


class ServiceHistoryBatch:
    """Manifests and readings judged one by one in memory, then written together (module docstring)."""

    def __init__(self, *, acting_user, ctx: ProgramContext | None = None):
        require_role(acting_user, MANIFEST_SUBMITTERS, "Your role may not submit manifests.")
        if Manifest.objects.exists() or SludgeReading.objects.exists() or ServiceRequirement.objects.exists():
            raise HistoryNotEmpty(
                "Service records are already on record: a history batch loads one into a program with "
                "none; submit these manifests and readings one at a time instead."
            )
        self.acting_user = acting_user
        self.ctx = ctx or ProgramContext()
        self._cache: dict = {}  # manifest_validate's look-ups (devices, haulers, vehicles)
        # (hauler id, number) -> attested, of the batch's manifests: with none on record before the
        # batch, these are all the numbers there are.
        self._numbers: dict = {}
        self._devices: dict[int, _Device] = {}
        self._trucks: dict[tuple, list[Manifest]] = defaultdict(list)
        self.manifests: list[Manifest] = []
        self.readings: list[SludgeReading] = []
        self.requirements: list[ServiceRequirement] = []
        self._closings: list[tuple[ServiceRequirement, str, Manifest | None, str]] = []
        self.flags: list[ManifestFlag] = []

    # --- judging, in order ---------------------------------------------------------------------

    def manifest(self, submission: ManifestSubmission, *, channel: str, raw: dict | None = None) -> Manifest:
        """Check and judge one manifest as ``manifest_submit`` would at this point of the history."""
        resolved = manifest_validate(
            submission,
            acting_user=self.acting_user,
            ctx=self.ctx,
            device_cache=self._cache,
            numbers_on_record=self._numbers,
        )
        if resolved.fields.pop("_attachments"):
            raise ValidationError(
                {"attachments": "A history batch keeps no files; submit this manifest alone."}
            )
        fields = resolved.fields
        if resolved.number_shared:  # F1, F7: flagged on both manifests by manifest_submit
            raise ValidationError(
                {"manifest_number": "Another manifest names this hauler and number; submit it alone."}
            )
        if fields["hauler"] is not None:
            self._numbers[(fields["hauler"].pk, fields["manifest_number"])] = fields["hauler_attested"]
        manifest = Manifest(
            channel=channel, submission=canonical_submission(raw if raw is not None else {}), **fields
        )
        held = self._held(resolved.device)
        # The facts the flags are judged by, from the history before this manifest.
        ruleset = self.ctx.ruleset(manifest.service_date)
        previous = max(
            (
                m.service_date
                for m in held.manifests
                if m.full_pumpout and m.service_date < manifest.service_date
            ),
            default=None,
        )
        over = None
        for reading in held.readings:
            if (
                reading.fill_ratio is not None
                and reading.fill_ratio > ruleset.fill_limit_ratio
                and reading.taken_on <= manifest.service_date
                and (previous is None or reading.taken_on > previous)
                and (over is None or reading.taken_on >= over.taken_on)
            ):
                over = reading
        conflict = self._same_truck_elsewhere(manifest, ruleset.manifest_vehicle_conflict_minutes)
        held.manifests.append(manifest)
        self.manifests.append(manifest)
        if manifest.vehicle_plate:
            self._trucks[self._truck_key(manifest, manifest.serviced_at.date())].append(manifest)

        e8_already_open = Kind.INTERCEPTOR_PLANS in held.open
        snap = self._snapshot(held)
        judged = manifest_judge(
            manifest,
            device=held.device,
            frequency_days=snap.status.frequency_days,
            recommendation=snap.recommendation,
            e8_exception="",
            ratio=resolved.ratio,
            facts=ManifestFacts(
                conflict=conflict, previous_full_pumpout_on=previous, over_limit_reading=over
            ),
            e8_already_open=e8_already_open,
            ctx=self.ctx,
        )
        self._carry_out(held, judged.consequences, on=manifest.service_date, manifest=manifest)
        self.flags += [
            ManifestFlag(manifest=manifest, code=f.code, provision=f.provision, message=f.message)
            for f in judged.flags
        ]
        return manifest

    def reading(
        self,
        *,
        device: GreaseControlDevice,
        taken_on: dt.date,
        fog_depth_in: Decimal,
        solids_depth_in: Decimal,
        source: str,
        notes: str = "",
    ) -> SludgeReading:
        """Check and judge one reading as ``reading_record`` would at this point of the history."""
        ratio = reading_checked(
            device=device,
            acting_user=self.acting_user,
            taken_on=taken_on,
            fog_depth_in=fog_depth_in,
            solids_depth_in=solids_depth_in,
            source=source,
            ctx=self.ctx,
        )
        reading = SludgeReading(
            device=device,
            taken_on=taken_on,
            fog_depth_in=fog_depth_in,
            solids_depth_in=solids_depth_in,
            fill_ratio=ratio.quantize(Decimal("0.0001")) if ratio is not None else None,
            source=source,
            notes=notes,
            recorded_by=person(self.acting_user),
        )
        held = self._held(device)
        held.readings.append(reading)
        self.readings.append(reading)
        snap = self._snapshot(held, device=device)  # as reading_record judges the device it is given
        consequences = consequences_for(
            device=device,
            frequency_days=snap.status.frequency_days,
            recommendation=snap.recommendation,
            e8_exception="",
            ratio=ratio,
            gallons_removed=None,
            on=taken_on,
            ctx=self.ctx,
        )
        self._carry_out(held, consequences, on=taken_on, reading=reading)
        return reading

    def _held(self, device: GreaseControlDevice) -> _Device:
        if device.pk not in self._devices:
            self._devices[device.pk] = _Device(device=device)
        return self._devices[device.pk]

    def _snapshot(self, held: _Device, *, device: GreaseControlDevice | None = None) -> DeviceSnapshot:
        """``device_snapshot`` on today, from the events the batch holds (as ``device_events`` reads
        them: effective manifests newest first, then readings newest first, each bounded)."""
        today = self.ctx.today()
        order = {id(m): i for i, m in enumerate(held.manifests)}
        manifests = sorted(
            (m for m in held.manifests if m.service_date <= today),
            key=lambda m: (m.serviced_at, order[id(m)]),
            reverse=True,
        )[:HISTORY_MANIFESTS]
        readings = [r for _, r in sorted(enumerate(held.readings), key=lambda p: (p[1].taken_on, p[0]))]
        readings = [r for r in reversed(readings) if r.taken_on <= today][:HISTORY_READINGS]
        events = [
            ServiceEvent(m.service_date, m.full_pumpout, m.fog_depth_in, m.solids_depth_in, "manifest")
            for m in manifests
        ]
        events += [
            ServiceEvent(r.taken_on, False, r.fog_depth_in, r.solids_depth_in, r.source) for r in readings
        ]
        last_manifest_id = manifests[0].pk if manifests else None  # set once the batch is written
        return snapshot_from_events(device or held.device, events, last_manifest_id, on=today, ctx=self.ctx)

    def _carry_out(self, held: _Device, consequences, *, on: dt.date, manifest=None, reading=None) -> None:
        """What ``apply_consequences`` writes, kept until ``write()``."""
        plan = requirement_plan(
            consequences, open_kinds=set(held.open), pumped=manifest is not None and manifest.full_pumpout
        )
        if plan.meets_open_immediate:
            self._close(held, Kind.IMMEDIATE_SERVICE, manifest, met_by_pumpout_note(manifest))
        for kind in plan.opens:
            if kind not in held.open:
                requirement = ServiceRequirement(
                    device=held.device,
                    kind=kind,
                    provision=ServiceRequirement.PROVISIONS[kind],
                    opened_on=on,
                    due_on=on if kind == Kind.IMMEDIATE_SERVICE else None,
                    opened_by_manifest=manifest,
                    opened_by_reading=reading,
                    proposed_frequency_days=consequences.proposed_frequency_days,
                    proposed_effective_on=consequences.frequency_change_effective_on,
                    explanation=consequences.explanation.as_record(),
                )
                held.open[kind] = requirement
                self.requirements.append(requirement)
            if kind == Kind.IMMEDIATE_SERVICE and plan.met_at_once:
                self._close(held, kind, manifest, MET_BY_SAME_VISIT)
        if set(held.open) != plan.open_kinds:  # the plan and the requirements held must agree
            raise AssertionError(f"Requirements of device {held.device.pk} out of step with the rules' plan.")

    def _close(self, held: _Device, kind: str, manifest, note: str) -> None:
        requirement = held.open.pop(kind)
        self._closings.append((requirement, ServiceRequirement.Status.MET, manifest, note))

    @staticmethod
    def _truck_key(manifest: Manifest, day: dt.date) -> tuple:
        return (manifest.hauler_id, manifest.vehicle_plate.upper(), day)

    def _same_truck_elsewhere(self, manifest: Manifest, minutes: int) -> Manifest | None:
        """The earliest manifest of the same hauler's truck at another device within the window."""
        if not manifest.vehicle_plate:
            return None
        window = dt.timedelta(minutes=minutes)
        low, high = manifest.serviced_at - window, manifest.serviced_at + window
        day, found = low.date(), None
        while day <= high.date():
            for other in self._trucks.get(self._truck_key(manifest, day), ()):
                if (
                    low < other.serviced_at < high
                    and other.device_id != manifest.device_id
                    and (found is None or other.serviced_at < found.serviced_at)
                ):
                    found = other
            day += dt.timedelta(days=1)
        return found

    # --- writing --------------------------------------------------------------------------------

    def write(self) -> None:
        """Store everything judged, in bulk, with one audit entry per record and change."""
        acting = self.acting_user
        for start in range(0, len(self.manifests), CHUNK):
            record_append_chunk(self.manifests[start : start + CHUNK], acting_user=acting)
        audit_records_bulk(
            acting_user=acting,
            action="manifest.submit",
            changes=[(m, None, snapshot(m)) for m in self.manifests],
        )
        SludgeReading.objects.bulk_create(self.readings, batch_size=500)
        audit_records_bulk(
            acting_user=acting,
            action="reading.record",
            changes=[(r, None, snapshot(r)) for r in self.readings],
        )
        ServiceRequirement.objects.bulk_create(self.requirements, batch_size=500)
        audit_records_bulk(
            acting_user=acting,
            action="service_requirement.open",
            changes=[(r, None, snapshot(r)) for r in self.requirements],
        )
        closed_at, changes = timezone.now(), []
        for requirement, status, manifest, note in self._closings:
            before = snapshot(requirement)
            requirement.status, requirement.closed_at = status, closed_at
            requirement.closed_by_manifest, requirement.close_note = manifest, note
            changes.append((requirement, before, snapshot(requirement)))
        ServiceRequirement.objects.bulk_update(
            [r for r, _, _ in changes],
            ["status", "closed_at", "closed_by_manifest", "close_note"],
            batch_size=500,
        )
        audit_records_bulk(acting_user=acting, action="service_requirement.close", changes=changes)
        ManifestFlag.objects.bulk_create(self.flags, batch_size=500)
        self._write_states()

    def _write_states(self) -> None:
        """Each device's state as ``device_state_refresh`` leaves it after its last record."""
        today, now = self.ctx.today(), timezone.now()
        existing = set(
            DeviceServiceState.objects.filter(device__in=list(self._devices)).values_list(
                "device_id", flat=True
            )
        )
        new, changed, fields = [], [], ["refreshed_at"]
        for pk, held in self._devices.items():
            values = state_values(self._snapshot(held), today=today, open_kinds=set(held.open))
            state = DeviceServiceState(device=held.device, refreshed_at=now, **values)
            (changed if pk in existing else new).append(state)
            fields = [*values, "refreshed_at"]
        DeviceServiceState.objects.bulk_create(new, batch_size=500)
        DeviceServiceState.objects.bulk_update(changed, fields, batch_size=500)
