"""Lab results (D5): entered on a form, sent as a JSON list, or uploaded as a CSV file, always all
or none: one bad row refuses the lot, with every row's reason, and nothing is saved. Each result is
judged against the discharge limit in force on the day the sample was taken (D4, D5); a result
outside it opens one finding citing the limit's provision, with the result and the sample as its
evidence."""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
from collections.abc import Iterable, Mapping
from decimal import Decimal, InvalidOperation

from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone

from fogcontrol.audit.services import audit_record, audit_records_bulk, snapshot
from fogcontrol.core.actors import actor_label_for
from fogcontrol.core.permissions import require_role
from fogcontrol.core.working import english_label
from fogcontrol.findings.models import Finding
from fogcontrol.findings.services import findings_open_bulk
from fogcontrol.program.selectors import town_today, town_zone
from fogcontrol.rules.explain import explain, fmt_date, say
from fogcontrol.rules.sampling import judge_result
from fogcontrol.sampling.models import Analyte, DischargeLimit, LabReport, LabResult, Sample, Unit
from fogcontrol.sampling.roles import SAMPLERS

CSV_COLUMNS = ("analyte", "value", "unit", "method", "analysed_on", "reported_by")
MAX_CSV_BYTES = 1_000_000
MAX_ROWS = 200
_ANALYTES = {**{a.value: a.value for a in Analyte}, **{a.label.casefold(): a.value for a in Analyte}}
_UNITS = {**{u.value.casefold(): u.value for u in Unit}, **{u.label.casefold(): u.value for u in Unit}}
_UNITS.update({"f": Unit.DEG_F, "deg f": Unit.DEG_F, "su": Unit.PH_UNITS, "mg/l": Unit.MG_L})


def sample_day(sample: Sample) -> dt.date:
    """The Town's date of the sampling: the day the result is judged on."""
    return timezone.localtime(sample.sampled_at, town_zone()).date()


def _clean_row(
    raw: Mapping, *, sampled_on: dt.date, today: dt.date, laboratory: str
) -> tuple[dict, list[str]]:
    errors: list[str] = []
    analyte = _ANALYTES.get(str(raw.get("analyte") or "").strip().casefold())
    if analyte is None:
        errors.append(f"analyte {raw.get('analyte')!r} is not one of: {', '.join(Analyte.values)}")
    try:
        value = Decimal(str(raw.get("value")).strip())
        if not value.is_finite() or abs(value) >= Decimal("1e8") or value.as_tuple().exponent < -4:
            raise InvalidOperation
    except (InvalidOperation, ValueError):
        value = None
        errors.append(f"value {raw.get('value')!r} is not a number (up to 4 decimals, e.g. 112.5)")
    unit = _UNITS.get(str(raw.get("unit") or "").strip().casefold())
    if unit is None:
        errors.append(f"unit {raw.get('unit')!r} is not one of: {', '.join(Unit.values)}")
    method = str(raw.get("method") or "").strip()
    if not method:
        errors.append("method is missing (e.g. EPA 1664B)")
    analysed_on = raw.get("analysed_on")
    if not isinstance(analysed_on, dt.date):
        try:
            analysed_on = dt.date.fromisoformat(str(analysed_on or "").strip())
        except ValueError:
            analysed_on = None
            errors.append(f"analysed_on {raw.get('analysed_on')!r} is not a date (YYYY-MM-DD)")
    if analysed_on is not None and analysed_on < sampled_on:
        errors.append(f"analysed_on {analysed_on} is before the sample was taken ({sampled_on})")
    elif analysed_on is not None and analysed_on > today:
        errors.append(f"analysed_on {analysed_on} is in the future")
    reported_by = str(raw.get("reported_by") or "").strip() or laboratory
    clean = {
        "analyte": analyte,
        "value": value,
        "unit": unit,
        "method": method[:60],
        "analysed_on": analysed_on,
        "reported_by": reported_by[:150],
    }
    return clean, errors


def _limits_in_force(sample: Sample, on: dt.date) -> dict[str, DischargeLimit]:
    """The limit of each analyte in force on ``on`` for the sample's establishment: one query."""
    limits: dict[str, DischargeLimit] = {}
    rows = DischargeLimit.objects.filter(establishment_id=sample.establishment_id, effective_from__lte=on)
    for limit in rows.order_by("analyte", "-effective_from"):
        limits.setdefault(limit.analyte, limit)
    return limits


def _judge(result: LabResult, limit: DischargeLimit | None, on: dt.date) -> None:
    label = english_label(Analyte(result.analyte).label)  # English of record, said again in Spanish
    if limit is None:
        result.judgement = explain(
            ("D5",),
            (
                say(
                    "No discharge limit for %(analyte)s was in force on %(on)s: nothing to judge against.",
                    analyte=label,
                    on=fmt_date(on),
                ),
            ),
        ).as_record()
        return
    judgement = judge_result(
        analyte=label,
        value=result.value,
        unit=result.unit,
        limit_min=limit.min_value,
        limit_max=limit.max_value,
        limit_unit=limit.unit,
        condition=limit.condition
        or say(
            "%(analyte)s %(wording)s, from %(day)s",
            analyte=label,
            wording=limit.wording,
            day=fmt_date(limit.effective_from),
        ),
        provision=limit.provision,
    )
    result.limit = limit
    result.outside = judgement.outside
    result.provision = judgement.provision if judgement.outside else ""
    result.judgement = judgement.explanation.as_record()


def _finding(result: LabResult, sample: Sample, on: dt.date) -> Finding:
    limit = result.limit
    label = Analyte(result.analyte).label
    return Finding(
        establishment_id=sample.establishment_id,
        device_id=sample.device_id,
        provision=result.provision,
        item=f"lab result {result.pk}",
        description=(
            f"{label} of {result.value.normalize():f} {result.unit} in the {sample.get_kind_display().lower()} "
            f"sample {sample.pk} taken {fmt_date(on)} at {sample.sample_point} is outside the permit's "
            f"limit ({limit.wording}; {limit.provision}, D4)."
        ),
        reading=f"{label} {result.value.normalize():f} {result.unit} (limit {limit.wording}; {result.method})",
        began_on=on,
        source=Finding.Source.SAMPLE,
        source_id=result.pk,
    )


@transaction.atomic
def results_record(
    *, sample: Sample, rows: Iterable[Mapping], acting_user, report: LabReport | None = None
) -> list[LabResult]:
    """D5: record a sample's lab results, all or none (every bad row named with its reason), each
    judged against the limit in force on the sampling day; each result outside its limit opens one
    finding (set-based: one INSERT of results, one of findings, one of each's audit entries)."""
    require_role(acting_user, SAMPLERS, "Only the FOG Manager and inspectors record lab results.")
    sample = Sample.objects.select_for_update(of=("self",)).get(pk=sample.pk)
    rows = list(rows)
    if not rows:
        raise ValidationError({"results": "Send at least one result."})
    if len(rows) > MAX_ROWS:
        raise ValidationError({"results": f"Send at most {MAX_ROWS} results at once."})
    on, today = sample_day(sample), town_today()
    cleaned, errors = [], []
    for number, raw in enumerate(rows, start=1):
        if not isinstance(raw, Mapping):
            errors.append(f"Row {number}: give analyte, value, unit, method, analysed_on and reported_by.")
            continue
        clean, problems = _clean_row(raw, sampled_on=on, today=today, laboratory=sample.laboratory)
        errors.extend(f"Row {number}: {problem}." for problem in problems)
        cleaned.append(clean)
    if errors:
        raise ValidationError({"results": errors})
    limits = _limits_in_force(sample, on)
    label = actor_label_for(acting_user)
    results = []
    for clean in cleaned:
        result = LabResult(sample=sample, report=report, recorded_by_label=label, **clean)
        _judge(result, limits.get(result.analyte), on)
        result.full_clean(exclude=["sample", "report", "limit"])
        results.append(result)
    results = LabResult.objects.bulk_create(results)
    audit_records_bulk(
        acting_user=acting_user,
        action="sample.result",
        changes=[(result, None, snapshot(result)) for result in results],
    )
    outside = [result for result in results if result.outside]
    if outside:
        findings_open_bulk(
            findings=[_finding(result, sample, on) for result in outside],
            acting_user=acting_user,
            note="A lab result is outside the permit's discharge limit (D5).",
        )
    return results


def parse_results_csv(data: bytes) -> list[dict]:
    """The rows of a lab results CSV (columns ``CSV_COLUMNS``, a header row first); a file that is
    not such a CSV is refused as a whole, saying what to fix."""
    if len(data) > MAX_CSV_BYTES:
        raise ValidationError(
            {"file": f"The file is larger than {MAX_CSV_BYTES // 1000} kB: send the results only."}
        )
    not_csv = "The file is not UTF-8 text: save it as CSV (UTF-8)."
    if b"\x00" in data:  # UTF-16 without its mark, or a binary file: valid UTF-8, but no CSV
        raise ValidationError({"file": f"{not_csv} (It holds NUL bytes: UTF-16, or not text at all.)"})
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValidationError({"file": not_csv}) from exc
    reader = csv.DictReader(io.StringIO(text))
    try:
        header = [name.strip().casefold() for name in (reader.fieldnames or [])]
    except csv.Error as exc:
        raise ValidationError({"file": f"The header row cannot be read as CSV ({exc}): {not_csv}"}) from exc
    missing = [column for column in CSV_COLUMNS if column not in header]
    if missing:
        raise ValidationError(
            {
                "file": f"The header row lacks: {', '.join(missing)}. The columns are: {', '.join(CSV_COLUMNS)}."
            }
        )
    reader.fieldnames = header
    try:
        return [
            row
            for row in reader
            if any((value or "").strip() for value in row.values() if isinstance(value, str))
        ]
    except csv.Error as exc:
        raise ValidationError(
            {"file": f"Line {reader.line_num} cannot be read as CSV ({exc}): {not_csv}"}
        ) from exc


@transaction.atomic
def results_upload(*, sample: Sample, file, acting_user) -> tuple[LabReport, list[LabResult]]:
    """D5: a lab's CSV of results, all or none; the file is kept as the record (``LabReport``,
    private) with the results it carried."""
    require_role(acting_user, SAMPLERS, "Only the FOG Manager and inspectors upload lab results.")
    if file is None:
        raise ValidationError({"file": "Choose the lab's CSV file."})
    data = file.read(MAX_CSV_BYTES + 1)
    rows = parse_results_csv(data)
    name = (getattr(file, "name", "") or "results.csv").rsplit("/", 1)[-1][:200]
    report = LabReport(
        sample=sample,
        original_name=name,
        size_bytes=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
        uploaded_by_label=actor_label_for(acting_user),
    )
    # Validate the rows before the file is stored: a refused upload leaves nothing behind.
    results_check(sample=sample, rows=rows)
    report.file.save("results.csv", ContentFile(data), save=False)
    report.save()
    audit_record(acting_user=acting_user, action="sample.lab_report", instance=report, after=snapshot(report))
    results = results_record(sample=sample, rows=rows, acting_user=acting_user, report=report)
    return report, results


def results_check(*, sample: Sample, rows: list[Mapping]) -> None:
    """Every row's reason, before anything is stored (the upload keeps no file it refuses)."""
    if not rows:
        raise ValidationError({"file": "The file has a header row but no result."})
    on, today = sample_day(sample), town_today()
    errors = []
    for number, raw in enumerate(rows, start=1):
        _, problems = _clean_row(raw, sampled_on=on, today=today, laboratory=sample.laboratory)
        errors.extend(f"Row {number}: {problem}." for problem in problems)
    if errors:
        raise ValidationError({"file": errors})
