"""Demo records: violations opened by the nightly sweep from the demo's findings, overdue services and
permits, and cases at every stage this app records: a notice of violation with its correction due,
a citation, a compliance schedule agreement in force, one with a missed milestone (H4), a referral
with its outcome, a closed case, and hearings for the Hearing Officer's work list.

Called by ``fogcontrol.demo`` (``seed(*, rng, town, today)``) through the services (acting user
"seed_demo"), after the other apps' seeders so their findings and service states are there.
"""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.enforcement import documents
from fogcontrol.enforcement.models import Hearing, Violation
from fogcontrol.enforcement.selectors.money import amounts_owed
from fogcontrol.enforcement.services import steps
from fogcontrol.enforcement.services.cases import case_close, case_open
from fogcontrol.enforcement.services.sweep import enforcement_sweep
from fogcontrol.enforcement.services.violations import violation_open
from fogcontrol.notices.services.templates import template_first_version
from fogcontrol.program.selectors import ruleset_on, town_calendar
from fogcontrol.rules.hearings import complaint_hearing_due, revocation_decision_due

ACTING = "seed_demo"


def _days(today: dt.date, n: int) -> dt.date:
    return today - dt.timedelta(days=n)


def _open_case(fse, today, summary, *, opened_days_ago: int):
    violations = list(Violation.objects.filter(establishment=fse, cured_on__isnull=True)[:3])
    if not violations:
        violations = [
            violation_open(
                acting_user=ACTING, establishment=fse, provision="C3", kind="other",
                description="Drain screens missing on the three-compartment sink",
                evidence="Seen at a routine inspection; photo on file.", began_on=_days(today, opened_days_ago + 5),
            )
        ]  # fmt: skip
    case = case_open(
        acting_user=ACTING, establishment=fse, summary=summary, opened_on=_days(today, opened_days_ago),
        internal_notes="Demo case.", violations=violations,
    )  # fmt: skip
    return case


def _nov(case, today, days_ago: int, correct_in: int):
    issued = _days(today, days_ago)
    return steps.notice_of_violation_issue(
        acting_user=ACTING, case=case, violations=[v for v in case.violations.all() if v.cured_on is None],
        required_action="Correct each violation listed and send the FOG Manager proof (photos, receipts).",
        correct_by=issued + dt.timedelta(days=correct_in), issued_on=issued, service_method="certified_mail",
        served_on=issued + dt.timedelta(days=2), article_number=f"9407 1000 {days_ago:04d} {case.pk:04d}", today=today,
    )  # fmt: skip


def _hearing(case, today, *, kind, served_days_ago: int, held: bool, decided: bool):
    served = _days(today, served_days_ago)
    ruleset, calendar = ruleset_on(served), town_calendar()
    limit = complaint_hearing_due(served, ruleset=ruleset, calendar=calendar)
    scheduled = min(limit.due, served + dt.timedelta(days=30))
    hearing = Hearing(
        case=case, kind=kind, first_scheduled_on=scheduled, scheduled_on=scheduled, place="Council Chambers, Town Hall",
        latest_on=limit.due, explanation={"P5": limit.explanation.as_record()}, recorded_by_label=ACTING,
    )  # fmt: skip
    if held:
        hearing.held_on = hearing.concluded_on = scheduled
        decision = revocation_decision_due(scheduled, ruleset=ruleset, calendar=calendar)
        hearing.decision_due_on = decision.due
        hearing.explanation["L4"] = decision.explanation.as_record()
    if decided:
        hearing.decided_on = hearing.held_on + dt.timedelta(days=3)
        hearing.hearing_officer_name = "Hearing Officer (demo)"
        hearing.outcome = "Violations found. Administrative civil penalty of $1,500 ordered."
    hearing.save()
    audit_record(acting_user=ACTING, action="hearing.record", instance=hearing, after=snapshot(hearing))


def seed(*, rng: random.Random, town, today: dt.date) -> None:
    # The Town's wording of each document is in force from a year back, so older steps can be issued.
    for key in (documents.NOTICE_OF_VIOLATION, documents.CITATION, documents.COMPLIANCE_AGREEMENT):
        template_first_version(key, effective_from=_days(today, 400))
    enforcement_sweep(today=today, acting_user=ACTING)
    active = [fse for fse in town.active_establishments if fse != town.fse_establishment]
    rng.shuffle(active)
    with_violations = set(
        Violation.objects.filter(cured_on__isnull=True, establishment__in=active).values_list(
            "establishment_id", flat=True
        )
    )
    pool = [fse for fse in active if fse.pk in with_violations] + [
        fse for fse in active if fse.pk not in with_violations
    ]
    if town.fse_establishment is not None:
        pool.insert(0, town.fse_establishment)
    if len(pool) < 7:
        return
    # 1. The demo FSE's own case: a notice of violation, the correction due in two weeks.
    case = _open_case(pool[0], today, "Violations found at the last inspection.", opened_days_ago=10)
    _nov(case, today, days_ago=7, correct_in=21)
    # 2. A notice not heeded, then an administrative citation (P2).
    case = _open_case(pool[1], today, "Overdue service and missing records.", opened_days_ago=60)
    _nov(case, today, days_ago=55, correct_in=14)
    steps.citation_issue(
        acting_user=ACTING, case=case, violation=case.violations.all()[0], number=f"AC-{today:%Y}-{case.pk:04d}",
        amount=Decimal("250.00"), issued_on=_days(today, 30), service_method="personal_delivery",
        served_on=_days(today, 30), today=today,
    )  # fmt: skip
    # 3. and 4. Compliance schedule agreements: one in force, one with a milestone missed (H4).
    csa = [fse for fse in pool[2:] if not amounts_owed(fse)][:2]
    for number, fse in enumerate(csa):
        agreed = _days(today, 20 if number == 0 else 75)
        case = _open_case(
            fse,
            today,
            "Grease control device undersized; schedule agreed.",
            opened_days_ago=(today - agreed).days + 5,
        )
        steps.compliance_agreement_make(
            acting_user=ACTING, case=case, agreed_on=agreed, signed_by="Owner (demo)",
            terms="Audit of hauling records; BMP training for all kitchen staff; pump-out every 60 days.",
            milestones=[
                {"description": "BMP training held for all kitchen staff", "due_on": agreed + dt.timedelta(days=30)},
                {"description": "Hauling records for the last year sent to the FOG Manager", "due_on": agreed + dt.timedelta(days=60)},
            ],
            today=today,
        )  # fmt: skip
    enforcement_sweep(today=today, acting_user=ACTING)  # flags the missed milestone (H4)
    rest = [fse for fse in pool[2:] if fse not in csa]
    # 5. A complaint heard and decided (appeal window open), another awaiting its decision, one coming up.
    for number, (held, decided) in enumerate([(True, True), (True, False), (False, False)]):
        case = _open_case(rest[number], today, "Administrative complaint served (P5).", opened_days_ago=70)
        _hearing(
            case,
            today,
            kind=Hearing.Kind.COMPLAINT,
            served_days_ago=[40, 25, 10][number],
            held=held,
            decided=decided,
        )
    # 6. A referral for judicial penalties with its outcome, and a closed case.
    case = _open_case(rest[3], today, "Repeated SSOs: referred to the Town Attorney.", opened_days_ago=200)
    referral = steps.referral_record(
        acting_user=ACTING, case=case, kind="judicial", violations=list(case.violations.all()),
        referred_on=_days(today, 150), referred_to="Town Attorney", today=today,
    )  # fmt: skip
    steps.referral_outcome_record(
        acting_user=ACTING, referral=referral, outcome="Stipulated judgment: civil penalty paid.",
        outcome_on=_days(today, 40), amount_recovered=Decimal("12000.00"),
    )  # fmt: skip
    if len(rest) > 4:
        case = _open_case(rest[4], today, "Drain screens missing: corrected.", opened_days_ago=120)
        case_close(
            acting_user=ACTING,
            case=case,
            closed_on=_days(today, 90),
            reason="Corrected and verified at a follow-up inspection.",
        )
