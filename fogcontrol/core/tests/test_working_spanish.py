"""Every working of the counting, deadline, hearing, record, permit-term, enforcement, penalty,
billing, fee and calendar rules reads fully in Spanish (issue 18): each step said with ``say`` and in
the rules' catalogue, with Spanish dates and day counts, while its English, the language of record,
stays what it was whatever the language active when it is computed."""

import datetime as dt
import re
from decimal import Decimal

import pytest
from django.utils import translation

from fogcontrol.core.working import working_steps, working_text
from fogcontrol.rules import billing, enforcement, fees, penalties, permit_term, records
from fogcontrol.rules.counting import calendar_days_deadline
from fogcontrol.rules.deadlines import DEADLINE_RULES, compute_deadline, penalty_lien_eligible
from fogcontrol.rules.explain import Explanation, explain, say
from fogcontrol.rules.hearings import complaint_hearing_due, emergency_hearing_due
from fogcontrol.rules.tests.helpers import CALENDAR, CALENDAR_WITH_CLOSURE, RULES, d

# Start dates whose counts cross the holidays, weekends, a 9/80 closure and February 29.
STARTS = ("2026-06-01", "2026-07-03", "2024-02-29", "2026-11-25", "2026-12-24", "2026-07-31")
ENGLISH_DATE = re.compile(r"\b(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), [A-Z][a-z]+ \d")


def spanish(explanation: Explanation) -> list[str]:
    """The steps said in Spanish, after checking each one is (no step left in English)."""
    with translation.override("es"):
        steps = working_steps(explanation)
    left = [step for step, in_language in steps if not in_language]
    assert left == [], f"steps left in English: {left}"
    said = [step for step, _ in steps]
    english = list(explanation.steps)
    assert all(step != text for step, text in zip(said, english, strict=True)), "a step reads as its English"
    assert not any(ENGLISH_DATE.search(step) for step in said), "an English date inside a Spanish step"
    return said


def same_english_in_any_language(compute):
    """The working computed under Spanish is the one computed under English, word for word."""
    with translation.override("es"):
        in_spanish = compute()
    in_english = compute()
    assert in_spanish.explanation.text() == in_english.explanation.text()
    return in_english


@pytest.mark.provision("Counting days")
@pytest.mark.parametrize("slug", list(DEADLINE_RULES))
def test_every_deadline_rule_reads_in_spanish_from_every_start(slug):
    parameters = {"frequency_days": 90} if slug == "E1" else {}
    for start in STARTS:
        for calendar in (CALENDAR, CALENDAR_WITH_CLOSURE):
            deadline = same_english_in_any_language(
                lambda start=start, calendar=calendar: compute_deadline(
                    slug, d(start), ruleset=RULES, calendar=calendar, **parameters
                )
            )
            said = spanish(deadline.explanation)
            assert said[0].startswith("Inicio: ")


@pytest.mark.provision("Counting days")
def test_counting_a_closed_day_and_a_closure_in_spanish_with_the_english_unchanged():
    # P8's 30 days from November 25, 2026 end on Christmas Day: moved past the weekend (CCP §12a).
    deadline = same_english_in_any_language(
        lambda: compute_deadline("P8", d("2026-11-25"), ruleset=RULES, calendar=CALENDAR)
    )
    assert "Friday, December 25, 2026 is a Town holiday: Christmas Day; the Town's offices are closed." in (
        deadline.explanation.steps
    )
    assert (
        "The last day therefore moves to the next business day (Code of Civil Procedure §12a): "
        "Monday, December 28, 2026." in deadline.explanation.steps
    )
    said = spanish(deadline.explanation)
    assert (
        "El viernes 25 de diciembre de 2026 es un día feriado del Municipio: Navidad; las oficinas del "
        "Municipio están cerradas." in said
    )
    assert (
        "Por lo tanto, el último día pasa al siguiente día hábil (Código de Procedimiento Civil §12a): "
        "lunes 28 de diciembre de 2026." in said
    )
    # A duty done at the establishment is not moved by a 9/80 closure (CCP §12b): said so in Spanish.
    closure = calendar_days_deadline(
        slug="X",
        provision="C4",
        title="Training",
        start=d("2026-07-15"),
        start_what=say("the employee's hire date"),
        days=30,
        act=say("Training the new employee"),
        lapse_label=say("The new employee's training is late"),
        calendar=CALENDAR_WITH_CLOSURE,
        what=say("employee training"),
        office_act=False,
    )
    said = spanish(closure.explanation)
    assert any("un día de cierre del Municipio: 9/80 closure Friday" in step for step in said)


@pytest.mark.provision("M3")
def test_business_days_counted_are_listed_in_spanish():
    deadline = same_english_in_any_language(
        lambda: emergency_hearing_due(d("2026-11-25"), ruleset=RULES, calendar=CALENDAR)
    )
    said = spanish(deadline.explanation)
    assert any(
        step.startswith("No se cuentan: jueves 26 de noviembre de 2026 (un día feriado") for step in said
    )
    assert any(
        step.startswith("Los días hábiles contados son: lunes 30 de noviembre de 2026; ") for step in said
    )
    assert any(
        "Not counted: Thursday, November 26, 2026 (a Town holiday: Thanksgiving Day)" in s
        for s in deadline.explanation.steps
    )


@pytest.mark.provision("P5")
def test_a_town_maximum_reads_in_spanish():
    deadline = same_english_in_any_language(
        lambda: complaint_hearing_due(d("2026-06-01"), ruleset=RULES, calendar=CALENDAR)
    )
    said = spanish(deadline.explanation)
    assert any(
        step.startswith("Tipo de límite: un máximo que el propio Municipio debe cumplir.") for step in said
    )
    with translation.override("es"):
        assert working_text(deadline.explanation).startswith(
            "Disposiciones: P5, Cómputo de días\n1. Inicio: "
        )


@pytest.mark.provision("P9")
def test_the_lien_working_reads_in_spanish():
    lien = penalty_lien_eligible(d("2026-11-25"), ruleset=RULES, calendar=CALENDAR)
    said = spanish(lien.explanation)
    assert any(
        step.startswith("P9: una multa que ha permanecido en mora durante 60 días naturales") for step in said
    )


@pytest.mark.provision("B6")
def test_permit_term_and_licence_checks_read_in_spanish():
    term = same_english_in_any_language(
        lambda: permit_term.permit_term(
            d("2026-03-01"),
            licence_number="BL-1",
            licence_expires_on=d("2026-12-31"),
            ruleset=RULES,
            calendar=CALENDAR,
        )
    )
    assert term.explanation.steps[0] == "Start: Sunday, March 1, 2026, the first day of the permit's term."
    said = spanish(term.explanation)
    assert said[0] == "Inicio: domingo 1 de marzo de 2026, el primer día del periodo del permiso."
    longer = permit_term.permit_term(
        d("2026-03-01"),
        licence_number="BL-1",
        licence_expires_on=d("2028-12-31"),
        ruleset=RULES,
        calendar=CALENDAR,
    )
    spanish(longer.explanation)
    for expires in (None, d("2026-01-01"), d("2026-03-05")):
        check = permit_term.licence_check(
            licence_number="BL-1", licence_expires_on=expires, on=d("2026-03-02"), term_start=d("2026-03-10")
        )
        assert not check.allowed
        spanish(check.explanation)
    _start, reason = permit_term.renewal_term_start(
        term_start=d("2025-03-01"), valid_until=d("2026-02-28"), renewed_on=d("2026-03-10"), ruleset=RULES
    )
    spanish(explain(("B6",), [reason]))


@pytest.mark.provision("P7")
def test_penalty_caps_read_in_spanish():
    for kind, kwargs in (
        (penalties.NO_PERMIT, {"days": 3}),
        (penalties.MAINTENANCE, {"days": 1}),
        (penalties.SSO, {"occurrences": 2, "under_order": True}),
        (penalties.SSO, {"occurrences": 1}),
        (penalties.RECORDS, {"days": 4, "judicially_recovered": True}),
    ):
        cap = same_english_in_any_language(
            lambda kind=kind, kwargs=kwargs: penalties.penalty_cap(kind, ruleset=RULES, **kwargs)
        )
        said = spanish(cap.explanation)
        assert said[-1].startswith(
            "El funcionario de audiencias pondera y deja constancia de: magnitud del daño"
        )
    judicial = penalties.judicial_penalty_cap(5, RULES)
    spanish(judicial.explanation)
    spanish(penalties.judicial_penalty_cap(5, RULES, administratively_recovered=True).explanation)


@pytest.mark.provision("P3")
def test_enforcement_sentences_read_in_spanish():
    for cured in (None, d("2026-06-05")):
        _days, sentence = enforcement.violation_days_on(d("2026-06-01"), cured, d("2026-06-10"))
        spanish(explain(("P3",), [sentence]))
    _days, sentence = enforcement.violation_days_on(d("2026-06-20"), None, d("2026-06-10"))
    spanish(explain(("P3",), [sentence]))
    owed = [enforcement.Owed(label=say("Invoice"), amount=Decimal("120.00"))]
    spanish(enforcement.compliance_agreement_allowed(owed).explanation)
    spanish(enforcement.compliance_agreement_allowed([]).explanation)
    for met_on, today in (
        (d("2026-06-01"), d("2026-06-02")),
        (None, d("2026-05-01")),
        (d("2026-07-01"), d("2026-07-02")),
        (None, d("2026-07-01")),
    ):
        _missed, sentence = enforcement.milestone_missed(d("2026-06-01"), met_on, today)
        spanish(explain(("H4",), [sentence]))
    links = enforcement.l5_associations(
        enforcement.Business(1, "BL-2", "Taqueria Sol", operator_id=5, operator_name="Ana"),
        enforcement.Business(2, "BL-1", "Taqueria  sol", operator_id=5, operator_name="Ana"),
    )
    spanish(explain(("L5",), links))


@pytest.mark.provision("Q1")
def test_invoice_and_fee_workings_read_in_spanish():
    for kind in billing.INVOICE_KINDS:
        dates = same_english_in_any_language(
            lambda kind=kind: billing.invoice_dates(
                kind=kind, notice_date=d("2026-11-25"), ruleset=RULES, calendar=CALENDAR
            )
        )
        spanish(dates.explanation)
    for paid_on, on in (
        (None, d("2027-03-01")),
        (d("2026-11-30"), d("2027-03-01")),
        (d("2027-01-30"), d("2027-03-01")),
    ):
        spanish(
            fees.fee_status(
                notice_date=d("2026-11-25"), paid_on=paid_on, on=on, ruleset=RULES, calendar=CALENDAR
            ).explanation
        )
        spanish(
            fees.penalty_status(
                issued_on=d("2026-11-25"), paid_on=paid_on, on=on, ruleset=RULES, calendar=CALENDAR
            ).explanation
        )


@pytest.mark.provision("F3")
def test_report_schedules_read_in_spanish():
    for unit, every, first in (
        (records.EVERY_MONTHS, 1, "2026-01-31"),
        (records.EVERY_DAYS, 30, "2026-06-01"),
        (records.ONCE, 0, "2026-07-04"),
    ):
        for period in records.report_periods(
            kind="self_monitoring" if unit != records.ONCE else "contingency_plan",
            first_due_on=d(first),
            every=every,
            unit=unit,
            through=d(first) + dt.timedelta(days=70),
            calendar=CALENDAR,
        ):
            spanish(period.deadline.explanation)
    spanish(records.new_hire_training_due(d("2026-06-01"), ruleset=RULES, calendar=CALENDAR).explanation)
    spanish(records.request_first_due(d("2026-06-01"), ruleset=RULES, calendar=CALENDAR).explanation)


@pytest.mark.provision("Counting days")
def test_holiday_names_and_closed_day_reasons_read_in_spanish():
    reasons = [CALENDAR.closed_reason(day) for day in sorted(CALENDAR.holidays) if day.year == 2027]
    reasons.append(CALENDAR.closed_reason(d("2026-06-06")))
    reasons.append(CALENDAR_WITH_CLOSURE.closed_reason(d("2026-08-14")))
    said = spanish(explain(("Counting days",), reasons))
    assert "un día feriado del Municipio: Año Nuevo" in said  # Friday, January 1, 2027
    assert (
        "un día feriado del Municipio: Día de la Independencia (día observado)" in said
    )  # July 4 is a Sunday
    assert "un día de fin de semana" in said
