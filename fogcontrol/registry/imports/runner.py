"""Running a licence import over its file, in bounded batches, as a dry run or for real.

Each batch of rows costs a fixed number of queries to read (establishments by licence, parcels by
APN, operators by name) and one to write its report rows; only rows that change the registry
cost more, through the audited registry services. The dry run takes the same path up to the
point of saving, and validates each record as the services would (`full_clean`), so its report
is the report the real run will give on an unchanged registry.

Memory: the rows of one batch, plus one small entry per licence already seen in the file (to
find duplicates), whatever the file's size.
"""

from __future__ import annotations

import copy
import dataclasses
import logging
from collections import Counter
from collections.abc import Callable, Iterable, Iterator

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models.functions import Lower, Upper

from fogcontrol.registry import services as registry_services
from fogcontrol.registry.imports.normalise import Doubt, RowProblem, text_key
from fogcontrol.registry.imports.reading import SourceRow, open_rows
from fogcontrol.registry.imports.rows import CleanRow, clean_row, differences, fingerprint, json_cell
from fogcontrol.registry.models import (
    FoodServiceEstablishment,
    LicenceImport,
    LicenceImportRow,
    Parcel,
    Party,
)

logger = logging.getLogger(__name__)

BATCH_SIZE = 500
Outcome = LicenceImportRow.Outcome
Effect = LicenceImportRow.Effect
OUTCOMES = [choice for choice, _ in Outcome.choices]

# Registry fields set from the file, with their names in the report.
FIELD_LABELS = {
    "business_name": "business name",
    "site_address": "site address",
    "licence_expires_on": "licence expiry",
    "category": "category",
    "parcel": "parcel",
    "latitude": "latitude",
    "longitude": "longitude",
    "operator": "operator",
}


@dataclasses.dataclass
class RowResult:
    source: SourceRow
    outcome: str = Outcome.REJECTED
    effect: str = Effect.NONE
    clean: CleanRow | None = None
    establishment: FoodServiceEstablishment | None = None
    changed_fields: list[str] = dataclasses.field(default_factory=list)
    reasons: list[dict] = dataclasses.field(default_factory=list)
    # What the row says it is, as written, for the report when the row could not be cleaned: a
    # rejected row is found in the file by its licence and name.
    licence_as_written: str = ""
    name_as_written: str = ""

    def reject(self, code: str, message: str) -> None:
        self.outcome, self.effect = Outcome.REJECTED, Effect.NONE
        self.reasons.append({"code": code, "message": message})

    def doubt(self, doubt: Doubt) -> None:
        self.reasons.append({"code": doubt.code, "message": doubt.message})


@dataclasses.dataclass
class _Seen:
    row_number: int
    fingerprint: tuple


def batches(rows: Iterator[SourceRow], size: int) -> Iterator[list[SourceRow]]:
    """The rows in lists of `size` (the last one shorter): one transaction each. Shared by the
    spills import (fogcontrol/spills/imports/runner.py)."""
    batch: list[SourceRow] = []
    for row in rows:
        batch.append(row)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def run_import(
    *,
    licence_import: LicenceImport,
    apply: bool,
    acting_user,
    batch_size: int = BATCH_SIZE,
    on_progress: Callable[[int], None] | None = None,
) -> dict:
    """Read the whole file, write one report row per input row, and return the counts."""
    LicenceImportRow.objects.filter(licence_import=licence_import, applied=apply).delete()
    counts: Counter = Counter({outcome: 0 for outcome in OUTCOMES})
    reasons: Counter = Counter()
    seen: dict[str, _Seen] = {}
    total = 0
    licence_import.file.open("rb")
    try:
        with open_rows(licence_import.file.file, licence_import.file_format) as (_facts, rows):
            for batch in batches(rows, batch_size):
                # One transaction a batch: the services' own transactions become savepoints, so a
                # refused row still rolls back alone, but the database syncs to disk once a batch
                # rather than once a row (SQLite runs synchronous=FULL).
                with transaction.atomic():
                    results = _run_batch(
                        batch, licence_import.mapping, seen, apply=apply, acting_user=acting_user
                    )
                    LicenceImportRow.objects.bulk_create(
                        _report_row(licence_import, result, applied=apply) for result in results
                    )
                for result in results:
                    counts[result.outcome] += 1
                    reasons.update(reason["code"] for reason in result.reasons)
                total += len(batch)
                if on_progress:
                    on_progress(total)
    finally:
        licence_import.file.close()
    return {
        "rows": total,
        **{outcome: counts[outcome] for outcome in OUTCOMES},
        "reasons": dict(sorted(reasons.items())),
    }


def _report_row(licence_import: LicenceImport, result: RowResult, *, applied: bool) -> LicenceImportRow:
    clean = result.clean
    raw = {str(key): json_cell(value) for key, value in result.source.values.items()}
    return LicenceImportRow(
        licence_import=licence_import,
        applied=applied,
        row_number=result.source.row_number,
        outcome=result.outcome,
        effect=result.effect,
        licence_number=(clean.licence_number if clean else result.licence_as_written)[:64],
        business_name=(clean.business_name if clean else result.name_as_written)[:200],
        establishment=result.establishment
        if applied and result.establishment and result.establishment.pk
        else None,
        changed_fields=result.changed_fields,
        reasons=result.reasons,
        raw=raw,
    )


def _as_written(values: dict, mapping: dict, field: str) -> str:
    header = mapping.get(field)
    cell = values.get(header) if header else None
    return " ".join(str(cell).split()) if cell not in (None, "") else ""


def _run_batch(
    batch: list[SourceRow], mapping: dict, seen: dict[str, _Seen], *, apply: bool, acting_user
) -> list[RowResult]:
    results = [RowResult(source=source) for source in batch]
    # 1. Clean every row of the batch, so that the registry is read once for all of them.
    for result in results:
        try:
            result.clean = clean_row(result.source.values, mapping)
        except RowProblem as problem:
            result.reject(problem.code, problem.message)
            result.licence_as_written = _as_written(result.source.values, mapping, "licence_number")
            result.name_as_written = _as_written(result.source.values, mapping, "business_name")
    lookups = _Lookups.for_rows(result.clean for result in results if result.clean)
    # 2. In file order: settle duplicates, compare with the registry, apply when asked.
    for result in results:
        clean = result.clean
        if clean is None:
            continue
        mark = fingerprint(clean)
        earlier = seen.get(clean.licence_key)
        if earlier is not None and earlier.fingerprint == mark:
            # Its doubts, if any, were reported on the earlier row.
            result.outcome, result.effect = Outcome.DOUBTFUL, Effect.COUNTED_ONCE
            result.reasons = [
                {
                    "code": "duplicate_row",
                    "message": f"Same licence and data as row {earlier.row_number}: counted once.",
                }
            ]
            result.establishment = lookups.establishments.get(clean.licence_key)
            continue
        if earlier is not None:
            result.reject(
                "conflicting_duplicate",
                f"Licence {clean.licence_number} is already in row {earlier.row_number} with a different "
                f"{', '.join(differences(earlier.fingerprint, mark))}: this row was not imported. "
                "Correct the export so that each licence appears once, then import again.",
            )
            continue
        for doubt in clean.doubts:
            result.doubt(doubt)
        _plan_and_apply(result, lookups, apply=apply, acting_user=acting_user)
        # A rejected row does not stand for its licence: a later, correct row may.
        if result.outcome != Outcome.REJECTED:
            seen[clean.licence_key] = _Seen(result.source.row_number, mark)
    return results


@dataclasses.dataclass
class _Lookups:
    establishments: dict[str, FoodServiceEstablishment]
    parcels: dict[str, Parcel]
    parties: dict[str, Party]

    @classmethod
    def for_rows(cls, rows: Iterable[CleanRow]) -> _Lookups:
        rows = list(rows)
        licence_keys = {row.licence_key for row in rows}
        apns = {row.parcel_apn.upper() for row in rows if row.parcel_apn}
        names = {text_key(row.operator_name) for row in rows if row.operator_name}
        establishments = {}
        if licence_keys:
            for fse in (
                FoodServiceEstablishment.objects.annotate(licence_key=Upper("licence_number"))
                .filter(licence_key__in=licence_keys)
                .select_related("operator", "parcel")
            ):
                establishments[fse.licence_key] = fse
        parcels = {}
        if apns:
            for parcel in Parcel.objects.annotate(apn_key=Upper("apn")).filter(apn_key__in=apns):
                parcels[parcel.apn_key] = parcel
        parties = {}
        if names:
            for party in (
                Party.objects.annotate(name_key=Lower("name")).filter(name_key__in=names).order_by("pk")
            ):
                parties.setdefault(text_key(party.name), party)
        return cls(establishments=establishments, parcels=parcels, parties=parties)


def _target_fields(row: CleanRow, lookups: _Lookups, result: RowResult) -> dict:
    """The registry values the row asks for. A blank cell leaves the registry's value alone."""
    fields: dict = {"business_name": row.business_name}
    if row.site_address:
        fields["site_address"] = row.site_address
    if row.licence_expires_on:
        fields["licence_expires_on"] = row.licence_expires_on
    if row.category:
        fields["category"] = row.category
    if row.parcel_apn:
        parcel = lookups.parcels.get(row.parcel_apn.upper())
        if parcel:
            fields["parcel"] = parcel
        else:
            result.doubt(
                Doubt(
                    "parcel_unknown",
                    f"Parcel {row.parcel_apn} is not in the registry: the establishment is not linked to it.",
                )
            )
    if row.latitude is not None:
        fields["latitude"], fields["longitude"] = row.latitude, row.longitude
    return fields


def _operator_change(row: CleanRow, fse: FoodServiceEstablishment | None, lookups: _Lookups):
    """(party to link or None for a new one, party field changes). None when no operator is given."""
    if not row.operator_name:
        return None
    current = fse.operator if fse else None
    party = current if current and text_key(current.name) == text_key(row.operator_name) else None
    party = party or lookups.parties.get(text_key(row.operator_name))
    changes = {}
    if row.operator_phone and (party is None or party.phone != row.operator_phone):
        changes["phone"] = row.operator_phone
    if row.operator_email and (party is None or party.email.lower() != row.operator_email.lower()):
        changes["email"] = row.operator_email
    return party, changes


def _plan_and_apply(result: RowResult, lookups: _Lookups, *, apply: bool, acting_user) -> None:
    row = result.clean
    fse = lookups.establishments.get(row.licence_key)
    fields = _target_fields(row, lookups, result)
    operator = _operator_change(row, fse, lookups)
    if fse is None:
        changed = list(fields)
        if "site_address" not in fields:
            result.reject(
                "site_address_missing",
                "No site address: a new establishment needs one. Map the address column or fill in the cell.",
            )
            return
        fields["licence_number"] = row.licence_number
    else:
        changed = [name for name, value in fields.items() if getattr(fse, name) != value]
    if operator is not None:
        party, party_changes = operator
        if party is None or party_changes or (fse is not None and fse.operator_id != party.pk):
            changed.append("operator")
    if changed:
        # Validate as the services will, so that the dry run rejects what applying would refuse.
        # (Uniqueness is settled above; the parcel and operator come from the registry.)
        candidate = copy.copy(fse) if fse else FoodServiceEstablishment()
        for name, value in fields.items():
            setattr(candidate, name, value)
        try:
            candidate.full_clean(
                exclude=["operator", "parcel"], validate_unique=False, validate_constraints=False
            )
            if operator and operator[0] is None:
                Party(name=row.operator_name, **operator[1]).full_clean(validate_unique=False)
        except ValidationError as error:
            result.reject("invalid", _validation_message(error))
            return

    result.changed_fields = [FIELD_LABELS.get(name, name) for name in changed if name != "licence_number"]
    effect = Effect.CREATED if fse is None else (Effect.UPDATED if changed else Effect.UNCHANGED)
    result.effect = effect
    result.outcome = Outcome.DOUBTFUL if result.reasons else Outcome(effect.value)
    result.establishment = fse
    if not apply or effect == Effect.UNCHANGED:
        return
    try:
        if operator is not None:
            fields["operator"] = _save_operator(row, operator, acting_user)
            lookups.parties[text_key(row.operator_name)] = fields["operator"]
        if fse is None:
            # users/haulers None: the import does not touch who may see the FSE (saves two queries).
            result.establishment = registry_services.establishment_create(
                acting_user=acting_user, users=None, haulers=None, **fields
            )
            lookups.establishments[row.licence_key] = result.establishment
        else:
            changes = {name: fields[name] for name in changed if name in fields}
            result.establishment = registry_services.establishment_update(
                establishment=fse, acting_user=acting_user, **changes
            )
    except ValidationError as error:
        result.reject("invalid", _validation_message(error))


def _save_operator(row: CleanRow, operator, acting_user) -> Party:
    party, changes = operator
    if party is None:
        return registry_services.party_create(acting_user=acting_user, name=row.operator_name, **changes)
    if changes:
        return registry_services.party_update(party=party, acting_user=acting_user, **changes)
    return party


def _validation_message(error: ValidationError) -> str:
    if hasattr(error, "error_dict"):
        return " ".join(
            f"{FIELD_LABELS.get(field, field).capitalize()}: {' '.join(messages)}"
            for field, messages in error.message_dict.items()
        )
    return " ".join(error.messages)
