"""Demo records of the later steps (enforcement-b): a complaint served with its hearing set (P5), a
complaint heard and decided with a penalty order payable (P6-P8; proposed by the Hearing Officer,
approved by the FOG Manager) and a second one waiting for its second approval, a suspension notice with its hearing
in the L2 window, and an emergency suspension (M1-M3) with sewer service terminated and reinstated, its
costs owed (O1, O2). Through the services (acting user "seed_demo"), after the permits' seeder, on
establishments holding a permit in force; one of them is the demo FSE user's."""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

from fogcontrol.enforcement.documents_orders import DOCUMENTS
from fogcontrol.enforcement.services import complaints, hearings, penalties, suspensions, terminations
from fogcontrol.enforcement.services.cases import case_open
from fogcontrol.enforcement.services.violations import violation_open
from fogcontrol.notices.services.templates import template_first_version
from fogcontrol.permits.models import Permit, PermitStatus

ACTING = "seed_demo"
FACTORS = {
    "harm": "Grease reached the public sewer; no overflow.",
    "economic_benefit": "About $450 saved by skipping a pump-out.",
    "nature_and_persistence": "The second lapse in a year.",
    "duration": "The days counted in the order.",
    "corrective_action": "Pumped out after the notice of violation.",
}


def _ago(today: dt.date, days: int) -> dt.date:
    return today - dt.timedelta(days=days)


def _case(fse, today: dt.date, *, began: int, summary: str):
    violation = violation_open(
        acting_user=ACTING, establishment=fse, provision="E1", kind="maintenance",
        description="Grease interceptor not pumped out on the permit's schedule",
        evidence="Hauler manifests on file show no service in the period.", began_on=_ago(today, began),
    )  # fmt: skip
    return case_open(acting_user=ACTING, establishment=fse, summary=summary, opened_on=_ago(today, began - 2),
                     internal_notes="Demo case (later stages).", violations=[violation])  # fmt: skip


def _complaint(case, today: dt.date, *, served: int, hearing_in: int):
    served_on = _ago(today, served)
    return complaints.complaint_serve(
        acting_user=ACTING, case=case, violations=list(case.violations.all()),
        statement="The grease interceptor was not pumped out on the permit's schedule.",
        law_violated="Town Code 10.02, E1; P7(3)", proposed_penalty=Decimal("4500"), issued_on=served_on,
        service_method="certified_mail", served_on=served_on, article_number=f"9407 2000 {case.pk:06d}",
        hearing_on=min(served_on + dt.timedelta(days=hearing_in),
                       complaints.complaint_hearing_limit(served_on).due),
        hearing_place="Council Chambers, Town Hall",
    )  # fmt: skip


def seed(*, rng: random.Random, town, today: dt.date) -> None:
    # The Town's wording of each document is in force from a year back, so older steps can be issued.
    for key in DOCUMENTS:
        template_first_version(key, effective_from=_ago(today, 400))
    permits = list(
        Permit.objects.filter(status=PermitStatus.ISSUED, establishment__cases__isnull=True)
        .select_related("establishment")
        .order_by("pk")[:40]
    )
    if len(permits) < 4:
        return
    own = next(
        (p for p in permits if p.establishment_id == getattr(town.fse_establishment, "pk", None)), None
    )
    others = [p for p in permits if p is not own]
    rng.shuffle(others)
    chosen = ([own] if own else []) + others
    # 1. Complaint served, hearing set (P5).
    case = _case(
        chosen[0].establishment, today, began=40, summary="Interceptor not pumped on schedule: complaint"
    )
    _complaint(case, today, served=10, hearing_in=30)
    # 2. Complaint heard and decided; penalty order payable (P6-P8).
    case = _case(
        chosen[1].establishment, today, began=90, summary="Interceptor not pumped on schedule: penalty"
    )
    complaint = _complaint(case, today, served=70, hearing_in=20)
    held = complaint.hearing.scheduled_on
    hearings.hearing_decide(
        acting_user=ACTING, hearing=complaint.hearing, held_on=held, decided_on=held + dt.timedelta(days=3),
        hearing_officer_name="Hearing Officer (demo)", outcome_text="Violation found; a penalty of $3,000 ordered.",
        article_number=f"9407 2100 {case.pk:06d}",
    )  # fmt: skip
    # Two-person rule: the Hearing Officer proposes, the FOG Manager approves and issues.
    officer, manager = town.users["hearing"], town.users["manager"]
    order = penalties.penalty_order_propose(
        acting_user=officer, case=case, complaint=complaint, violation_kind="maintenance", days=10,
        amount=Decimal("3000"), hearing_officer_name="Hearing Officer (demo)", factors=FACTORS,
        proposed_on=held + dt.timedelta(days=3),
    )  # fmt: skip
    penalties.penalty_order_decide(
        acting_user=manager, order=order, approve=True, issued_on=held + dt.timedelta(days=3),
        service_method="registered_mail", served_on=held + dt.timedelta(days=5),
        article_number=f"RR 2200 {case.pk:06d}",
    )  # fmt: skip
    # A second penalty on the same case, proposed and waiting for the second approval.
    penalties.penalty_order_propose(
        acting_user=officer, case=case, complaint=complaint, violation_kind="maintenance", days=2,
        amount=Decimal("1200"), hearing_officer_name="Hearing Officer (demo)",
        factors={**FACTORS, "duration": "Two further days after the decision."},
    )  # fmt: skip
    # 3. Suspension notice with its hearing in the L2 window.
    case = _case(chosen[2].establishment, today, began=120, summary="Repeated SSOs: suspension proposed")
    mailed = _ago(today, 5)
    suspensions.suspension_notice_issue(
        acting_user=ACTING, case=case, kind="suspension", grounds=["interference", "violation"],
        facts="Two sewer overflows traced to the FSE's lateral in three months; maintenance schedule not followed.",
        mailed_on=mailed, article_number=f"9407 2300 {case.pk:06d}",
        hearing_on=suspensions.hearing_window(mailed)["earliest"], hearing_place="Council Chambers, Town Hall",
    )  # fmt: skip
    # 4. Emergency suspension, service terminated and reinstated, costs owed (M1-M3, O1, O2).
    case = _case(
        chosen[3].establishment, today, began=20, summary="Overflow on Main Street: emergency suspension"
    )
    hearing = suspensions.emergency_suspension_order(
        acting_user=ACTING, case=case, ordered_on=_ago(today, 12),
        determination="Grease from the FSE's lateral caused an overflow on Main Street.", determined_by="FOG Manager",
    )  # fmt: skip
    termination = terminations.service_terminate(
        acting_user=ACTING, case=case, terminated_on=_ago(today, 11), how="Lateral plugged at the cleanout.",
        permit_order=hearing.permit_order, cost=Decimal("850"), owed_by=chosen[3].establishment.business_name,
    )  # fmt: skip
    terminations.service_reinstate(
        acting_user=ACTING,
        termination=termination,
        reinstated_on=_ago(today, 4),
        cost=Decimal("400"),
        owed_by=chosen[3].establishment.business_name,
    )
