"""The workings of frequency, maintenance, servicing rules, sizing, inspections, sampling, spills and
responsibility read in Spanish (issue 18): every step these modules say is said again in Spanish
(``core.working``), while the English of record stays as it was."""

import datetime as dt
from decimal import Decimal as D

import pytest
from django.utils import translation

from fogcontrol.core.working import said, working_steps
from fogcontrol.rules import (
    inspections,
    responsibility,
    sampling,
    servicing_rules,
    sizing,
    sizing_verdict,
    spills,
)
from fogcontrol.rules.devices import Measurement, Observation
from fogcontrol.rules.explain import explain
from fogcontrol.rules.frequency import assess_frequency_request, interceptor_requirement, recommend_frequency
from fogcontrol.rules.maintenance import device_status, next_service_due, reading_consequences
from fogcontrol.rules.tests.helpers import CALENDAR, RULES, d

STEADY = [Observation(30, D(1), D(2)), Observation(60, D(2), D(4)), Observation(90, D(3), D(6))]  # 0.1 in/day
HEAVY = [Observation(30, D(8), D(6)), Observation(30, D(9), D(6)), Observation(30, D(8), D(7))]


def _spanish(steps, *, leave_out=()):
    """Each step in Spanish, after checking that every one (but ``leave_out``, said by the shared
    counting helpers) reads in the language."""
    explanation = explain(("E1",), [step for step in steps if step not in leave_out])
    with translation.override("es"):
        pairs = working_steps(explanation)
    assert [step for step, in_language in pairs if not in_language] == []
    return [step for step, _ in pairs]


@pytest.mark.provision("E4")
def test_e4_the_frequency_recommendation_reads_in_spanish_and_its_english_is_unchanged():
    result = recommend_frequency(
        kind="gravity_interceptor", total_depth_in=48, observations=STEADY, ruleset=RULES
    )
    assert "At 90 days: projected 18.8% full (within the limit)." in result.explanation.steps
    spanish = _spanish(result.explanation.steps)
    assert "A 90 días: lleno al 18.8% según la proyección (dentro del límite)." in spanish
    assert any(step.startswith("Recomendada: cada 120 días naturales") for step in spanish)
    assert any("0.1000 pulg/día" in step for step in spanish)


@pytest.mark.provision("E5")
def test_e5_a_refused_request_reads_in_spanish_with_the_findings_said_again():
    refused = assess_frequency_request(
        requested_days=180, kind="gravity_interceptor", total_depth_in=48, observations=HEAVY,
        compliance_ok=False, ruleset=RULES, current_days=90,
    )  # fmt: skip
    granted = assess_frequency_request(
        requested_days=60, kind="gravity_interceptor", total_depth_in=48, observations=STEADY,
        compliance_ok=True, ruleset=RULES, current_days=90,
    )  # fmt: skip
    assert refused.explanation.steps[-1] == "Refused: the request is not justified on the grounds above (E5)."
    spanish = _spanish(refused.explanation.steps) + _spanish(granted.explanation.steps)
    assert "Denegada: la solicitud no está justificada por los motivos anteriores (E5)." in spanish
    assert "El establecimiento no cumple plenamente con su permiso y con el capítulo (E5)." in spanish
    assert spanish[0] == "Solicitud: servicio cada 180 días naturales (actualmente cada 90 días naturales)."
    assert any(step.startswith("Concedida") for step in spanish)


@pytest.mark.provision("E8")
def test_e8_the_interceptor_requirement_reads_in_spanish():
    recommendation = recommend_frequency(
        kind="hydromechanical_interceptor", total_depth_in=24, observations=HEAVY, ruleset=RULES
    )
    result = interceptor_requirement(
        kind="hydromechanical_interceptor", current_frequency_days=30, recommendation=recommendation,
        ruleset=RULES, space_exception=True,
    )  # fmt: skip
    assert "An exception is recorded (inadequate space): no interceptor plans required (E8)." in (
        result.explanation.steps
    )
    spanish = _spanish(result.explanation.steps)
    assert (
        "Hay una excepción registrada (espacio insuficiente): no se exigen planos de un interceptor (E8)."
        in spanish
    )


@pytest.mark.provision("E1")
@pytest.mark.provision("D4")
def test_d4_a_device_status_reads_in_spanish_with_spanish_dates():
    status = device_status(
        on=d("2026-07-20"), kind="gravity_interceptor", assigned_frequency_days=None,
        last_full_pumpout=d("2026-04-01"), latest_measurement=Measurement(d("2026-06-15"), D(8), D(6)),
        total_depth_in=48, ruleset=RULES, calendar=CALENDAR,
    )  # fmt: skip
    assert status.explanation.steps[0] == "Status on Monday, July 20, 2026."
    shared = next_service_due(d("2026-04-01"), 90).explanation.steps  # counting.py's lines, said there
    spanish = _spanish(status.explanation.steps, leave_out=shared)
    assert spanish[0] == "Estado al lunes 20 de julio de 2026."
    assert spanish[-1].startswith(
        "Por encima del límite de E3 del 25.0%: el dispositivo debe recibir servicio"
    )


@pytest.mark.provision("E6")
def test_e6_reading_consequences_read_in_spanish():
    result = reading_consequences(
        fill_ratio=D("0.30"), gallons_removed=2000, capacity_gallons=1000, kind="gravity_interceptor",
        current_frequency_days=90, recommendation=None, notice_date=d("2026-06-01"), ruleset=RULES,
        calendar=CALENDAR,
    )  # fmt: skip
    mine = [step for step in result.explanation.steps if hasattr(step, "template") and "B7" not in step]
    mine = [step for step in mine if not step.startswith(("Start:", "Kind of limit", "Earliest"))]
    assert "Fill: 30.0% of total depth; limit 25.0% (E3): over the limit." in mine
    spanish = _spanish(mine)
    assert "Llenado: 30.0% de la profundidad total; límite 25.0% (E3): por encima del límite." in spanish


@pytest.mark.provision("F7")
@pytest.mark.provision("F5")
def test_f7_f5_review_flags_and_purge_reasons_read_in_spanish():
    late = servicing_rules.serviced_late_flag(service_date=d("2026-07-10"), due=d("2026-07-01"), grace_days=2)
    assert late.message == (
        "The pump-out was due Wednesday, July 1, 2026; it was done 9 day(s) late, after a grace period of 2 day(s)."
    )
    conflict = servicing_rules.inspection_flags(
        service_date=d("2026-06-20"), full_pumpout=True, manifest_ratio=D("0.10"),
        over_limit_reading_on=d("2026-06-10"), over_limit_reading_ratio=D("0.40"), ruleset=RULES,
    )  # fmt: skip
    held = servicing_rules.purge_allowed(
        record_date=d("2020-01-01"), today=d("2026-07-01"), held=False, ruleset=RULES, calendar=CALENDAR
    )
    with translation.override("es"):
        texts = [said(late.message), *(said(flag.message) for flag in conflict), said(held.reason)]
    assert texts[0].startswith(
        "El vaciado vencía el miércoles 1 de julio de 2026; se hizo con 9 día(s) de retraso"
    )
    assert texts[1].startswith("El dispositivo se encontró lleno al 40.0% el miércoles 10 de junio de 2026")
    assert "Concejo Municipal" in texts[-1]


@pytest.mark.provision("A4")
@pytest.mark.provision("A5")
def test_a4_a5_the_sizing_working_and_verdict_read_in_spanish():
    load = sizing.drainage_fixture_units(
        [
            sizing.FixtureLoad("sink_three_compartment", "Three-compartment sink", 1),
            sizing.FixtureLoad("floor_sink", "Floor sink", 1, receptor=True),
            sizing.FixtureLoad("custom", "Wok station", 1),
        ],
        RULES,
    )
    gravity = sizing.gravity_interceptor_requirement(load, RULES)
    hydro = sizing.hydromechanical_size([("sink", 1, 24, 24, 12)], RULES)
    steps = [*gravity.explanation.steps, *load.explanation.steps, *hydro.explanation.steps]
    _, verdict = sizing_verdict.sizing_verdict("gravity_interceptor", gravity, None, 500, None)
    _, no_sinks = sizing_verdict.sizing_verdict("hydromechanical_interceptor", gravity, None, None, None)
    flags = sizing.a4_flags("gravity_interceptor", None, 18, RULES)
    assert no_sinks == "No sink dimensions were given, so the grease trap flow cannot be worked out (A5)."
    spanish = _spanish([*steps, verdict, no_sinks, *flags])
    assert "Tabla 702.1 del CPC, fregadero comercial, con desechos de alimentos" in " ".join(spanish)
    assert (
        "No se indicaron las dimensiones de los fregaderos, así que no se puede calcular el caudal de la "
        "trampa de grasa (A5)." in spanish
    )


@pytest.mark.provision("D8")
@pytest.mark.provision("D1")
def test_d8_d1_risk_score_visit_hours_and_device_assessment_read_in_spanish():
    score = inspections.risk_score(
        inspections.RiskInputs(devices_overdue=1, manifests_missed=2, meals_per_day=250), ruleset=RULES
    )
    hours = inspections.visit_hours_check(
        started_at=dt.datetime(2026, 7, 21, 7, 30), finished_at=dt.datetime(2026, 7, 21, 18, 0),
        office_hours="Monday to Friday, 8:00 a.m. to 5:00 p.m.", calendar=CALENDAR,
    )  # fmt: skip
    assessment = inspections.device_assessment(
        kind="gravity_interceptor", answers={"baffles": "fail"}, fog_depth_in=D(10), solids_depth_in=D(6),
        total_depth_in=D(48), ruleset=RULES,
    )  # fmt: skip
    assert score.explanation.steps[-1].startswith("Total: ")
    spanish = _spanish([*score.explanation.steps, *hours.explanation.steps, *assessment.explanation.steps])
    assert "Interpretado como de lunes a viernes, de 08:00 a 17:00." in spanish
    assert "Deflectores en su lugar y en buen estado: no cumple (D8)." in spanish or any(
        step.endswith(": no cumple (D8).") for step in spanish
    )
    assert any(step.startswith("Total: ") and "puntos" in step for step in spanish)


@pytest.mark.provision("D5")
@pytest.mark.provision("D6")
def test_d5_d6_sampling_workings_read_in_spanish():
    judged = sampling.judge_result(
        analyte="FOG", value=D(250), unit="mg/L", limit_min=None, limit_max=D(100), limit_unit="mg/L",
        condition="FOG ≤ 100 mg/L",
    )  # fmt: skip
    charge = sampling.compliance_charge_amount(
        quantity=D(2),
        rate=D("85.00"),
        unit="hours",
        what="Sampling",
        schedule_label="2026 fees",
        on=d("2026-07-01"),
    )
    refusal = sampling.custody_refusal(
        sampled_at=dt.datetime(2026, 7, 1, 10), previous_at=None, at=dt.datetime(2026, 7, 1, 9)
    )
    spanish = _spanish([*judged.explanation.steps, *charge.explanation.steps, refusal])
    assert "FOG 250 mg/L supera el máximo de 100 mg/L: la descarga infringe el límite (D5)." in spanish


@pytest.mark.provision("I1")
@pytest.mark.provision("A2")
def test_i1_a2_spill_category_and_responsibility_read_in_spanish():
    category = spills.spill_category(volume_spilled=D(1200), volume_reached_surface_water=None)
    assert category.explanation.steps[-1] == (
        "1,200 gallons, none reaching surface water: 1,000 gallons or more is Category 2."
    )
    shared = responsibility.device_responsibility(establishment_parcels=["123-456-78", "123-456-78"])
    spanish = _spanish([*category.explanation.steps, *shared.explanation.steps, spills.LIABILITY_STATEMENT])
    assert spanish[-1].startswith("Avisar al Municipio no exime al establecimiento")
    assert (
        "1,200 galones, ninguno llegó a aguas superficiales: 1,000 galones o más es Categoría 2." in spanish
    )
    assert "El dispositivo da servicio a 2 establecimientos en un mismo predio (123-456-78)." in spanish
