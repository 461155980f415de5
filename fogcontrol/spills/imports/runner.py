"""Running an import of the State's files over its stream of rows, in bounded batches, as a dry run
or for real, every row accounted for (imported, updated, unchanged, rejected with its reason; rows
of another agency than the one asked for are "skipped").

Per batch of spills: one SELECT of the spills already on record (by the State's spill id), one of
the agencies named, then (applying) one INSERT of the new spills, one UPDATE of the changed ones,
one INSERT of their audit entries (``audit_records_bulk``), and one INSERT of the report rows. The
agency register takes the same path. The file is read with the registry import's streaming reader
(encoding, delimiter, broken rows), so memory holds one batch plus the ids already seen.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

from django.db import transaction

from fogcontrol.audit.services import audit_records_bulk, snapshot
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.registry.imports.normalise import RowProblem
from fogcontrol.registry.imports.reading import open_rows
from fogcontrol.registry.imports.runner import batches
from fogcontrol.rules.spills import CAUSE_GREASE
from fogcontrol.spills.imports import ciwqs
from fogcontrol.spills.models import Agency, Spill, SpillImport, SpillImportRow

BATCH_SIZE = 500
Outcome = SpillImportRow.Outcome
OUTCOMES = [choice for choice, _ in Outcome.choices]
STATUS_RANK = {"Active": 0, "Historical": 1}


@dataclasses.dataclass
class Result:
    row_number: int
    outcome: str = Outcome.REJECTED
    key: str = ""
    reasons: list[dict] = dataclasses.field(default_factory=list)
    spill: Spill | None = None
    fog: bool = False


SPILL_DATA_FIELDS = [
    "kind", "agency_wdid", "location_name", "address", "city", "zip_code", "latitude", "longitude",
    "location_description", "started_at", "ended_at", "notified_at", "arrived_at", "volume_spilled",
    "volume_recovered", "volume_reached_surface_water", "destination", "destination_text",
    "storm_drain_fully_recovered", "category", "cause", "cause_explanation", "cause_original", "response", "flags",
]  # fmt: skip
AGENCY_DATA_FIELDS = ["name", "collection_system", "region", "county", "status"]


def _differs(record, fields: dict, names) -> list[str]:
    return [name for name in names if getattr(record, name) != fields[name]]


def _spill_batch(batch, *, seen: set, agency_wdid: str, apply: bool, acting_user) -> list[Result]:
    results, cleaned = [], []
    for row in batch:
        result = Result(row.row_number)
        results.append(result)
        if "__error__" in row.values:
            result.reasons.append({"code": "unreadable_row", "message": row.values["__error__"]})
            continue
        wdid = ciwqs.clean_text(row.values.get("WDID"))
        if agency_wdid and wdid != agency_wdid:
            result.outcome, result.key = Outcome.SKIPPED, wdid
            continue
        try:
            fields, flags = ciwqs.clean_spill(row.values, kind=Spill.Kind.PLSD)
        except RowProblem as problem:
            result.reasons.append({"code": problem.code, "message": problem.message})
            continue
        result.key = fields["state_spill_id"]
        if result.key in seen:
            result.reasons.append(
                {"code": "duplicate_spill_id", "message": f"SPILL_ID {result.key} was read already."}
            )
            continue
        seen.add(result.key)
        result.reasons.extend(flag.as_dict() for flag in flags)
        result.fog = fields["cause"] == CAUSE_GREASE
        cleaned.append((result, fields))
    existing = Spill.objects.in_bulk(
        [fields["state_spill_id"] for _r, fields in cleaned], field_name="state_spill_id"
    )
    agencies = Agency.objects.in_bulk({fields["agency_wdid"] for _r, fields in cleaned}, field_name="wdid")
    new, changed, audit = [], [], []
    for result, fields in cleaned:
        agency = agencies.get(fields["agency_wdid"])
        fields = {**fields, "agency_id": agency.pk if agency else None}
        spill = existing.get(fields["state_spill_id"])
        if spill is None:
            result.outcome = Outcome.IMPORTED
            new.append((result, Spill(
                **fields, source=Spill.Source.CIWQS, recorded_by=person(acting_user),
                recorded_by_label=actor_label_for(acting_user),
            )))  # fmt: skip
            continue
        differences = _differs(spill, fields, [*SPILL_DATA_FIELDS, "agency_id"])
        result.spill = spill
        if not differences:
            result.outcome = Outcome.UNCHANGED
            continue
        result.outcome = Outcome.UPDATED
        result.reasons.append({"code": "changed", "message": "Changed: " + ", ".join(differences) + "."})
        before = snapshot(spill)
        for name in differences:
            setattr(spill, name, fields[name])
        changed.append((spill, before, differences))
    if apply:
        created = Spill.objects.bulk_create([spill for _result, spill in new])
        for (result, _spill), spill in zip(new, created, strict=True):
            result.spill = spill
        if changed:
            names = sorted({name for _spill, _before, differences in changed for name in differences})
            Spill.objects.bulk_update([spill for spill, _before, _d in changed], names)
        audit.extend((spill, None, snapshot(spill)) for spill in created)
        audit.extend((spill, before, snapshot(spill)) for spill, before, _d in changed)
        if audit:
            audit_records_bulk(
                acting_user=acting_user, action="spill.import", changes=audit, note="CIWQS import"
            )
    return results


def _agency_batch(batch, *, seen: dict, apply: bool, acting_user) -> list[Result]:
    results, cleaned = [], []
    for row in batch:
        result = Result(row.row_number)
        results.append(result)
        if "__error__" in row.values:
            result.reasons.append({"code": "unreadable_row", "message": row.values["__error__"]})
            continue
        try:
            fields = ciwqs.clean_agency(row.values)
        except RowProblem as problem:
            result.reasons.append({"code": problem.code, "message": problem.message})
            continue
        result.key = fields["wdid"]
        cleaned.append((result, fields))
    on_record = Agency.objects.in_bulk({fields["wdid"] for _r, fields in cleaned}, field_name="wdid")
    new, changed = {}, {}
    befores = {}
    for result, fields in cleaned:
        wdid = fields["wdid"]
        agency = seen.get(wdid) or on_record.get(wdid)
        names = [*AGENCY_DATA_FIELDS, *(["address"] if fields["address_type"] == "AGENCY Mailing" else [])]
        if agency is not None and STATUS_RANK.get(fields["status"], 2) > STATUS_RANK.get(agency.status, 2):
            result.outcome = Outcome.UNCHANGED
            result.reasons.append({
                "code": "superseded", "message": f"A {fields['status']} row of {wdid}: the {agency.status} record stands.",
            })  # fmt: skip
            continue
        if agency is None:
            agency = Agency(wdid=wdid, **{name: fields[name] for name in names})
            seen[wdid] = new[wdid] = agency
            result.outcome = Outcome.IMPORTED
            continue
        seen[wdid] = agency
        differences = _differs(agency, fields, names)
        if not differences:
            result.outcome = Outcome.UNCHANGED
            continue
        result.outcome = Outcome.UPDATED
        result.reasons.append({"code": "changed", "message": "Changed: " + ", ".join(differences) + "."})
        if agency.pk is not None and wdid not in befores:
            befores[wdid] = snapshot(agency)
        for name in differences:
            setattr(agency, name, fields[name])
        if agency.pk is not None:
            changed[wdid] = agency
    if apply:
        created = Agency.objects.bulk_create(list(new.values()))
        if changed:
            Agency.objects.bulk_update(list(changed.values()), [*AGENCY_DATA_FIELDS, "address"])
        audit = [(agency, None, snapshot(agency)) for agency in created]
        audit += [(agency, befores[wdid], snapshot(agency)) for wdid, agency in changed.items()]
        if audit:
            audit_records_bulk(
                acting_user=acting_user, action="agency.import", changes=audit, note="CIWQS PRA import"
            )
    return results


def run_import(*, spill_import: SpillImport, apply: bool, acting_user, batch_size: int = BATCH_SIZE) -> dict:
    """Read the whole file, write one report row per input row, and return the counts."""
    SpillImportRow.objects.filter(spill_import=spill_import, applied=apply).delete()
    counts: Counter = Counter({outcome: 0 for outcome in OUTCOMES})
    reasons: Counter = Counter()
    total, fog = 0, 0
    seen_spills: set = set()
    seen_agencies: dict = {}
    spill_import.file.open("rb")
    try:
        with open_rows(spill_import.file.file, "csv") as (_facts, rows):
            for batch in batches(rows, batch_size):
                with transaction.atomic():
                    if spill_import.kind == SpillImport.Kind.AGENCIES:
                        results = _agency_batch(
                            batch, seen=seen_agencies, apply=apply, acting_user=acting_user
                        )
                    else:
                        results = _spill_batch(
                            batch, seen=seen_spills, agency_wdid=spill_import.agency_wdid, apply=apply,
                            acting_user=acting_user,
                        )  # fmt: skip
                    SpillImportRow.objects.bulk_create(
                        SpillImportRow(
                            spill_import=spill_import,
                            row_number=result.row_number,
                            applied=apply,
                            outcome=result.outcome,
                            key=result.key[:40],
                            reasons=result.reasons,
                            spill=result.spill if apply and result.spill is not None else None,
                        )  # fmt: skip
                        for result in results
                    )
                for result in results:
                    counts[result.outcome] += 1
                    reasons.update(reason["code"] for reason in result.reasons)
                    fog += result.fog
                total += len(batch)
    finally:
        spill_import.file.close()
    summary = {"rows": total, **{outcome: counts[outcome] for outcome in OUTCOMES}}
    if spill_import.kind == SpillImport.Kind.SPILLS:
        summary["fog_caused"] = fog
    summary["reasons"] = dict(sorted(reasons.items()))
    return summary
