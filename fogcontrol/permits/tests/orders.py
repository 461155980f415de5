"""Test helpers: orders recorded with the chapter's process (L1-L6, M1-M3), dated from today."""

import datetime as dt

from fogcontrol.permits import services
from fogcontrol.program.selectors import town_today

DAY = dt.timedelta(days=1)


def process_dates(today=None) -> dict:
    """A notice mailed 90 days ago, the hearing 20 days after (L2), the decision 10 days after it (L4),
    final 20 days later, not appealed (L6)."""
    today = today or town_today()
    mailed = today - 90 * DAY
    hearing = mailed + 20 * DAY
    decision = hearing + 10 * DAY
    return {"mailed": mailed, "hearing": hearing, "decision": decision, "final": decision + 20 * DAY}


def noticed_order(permit, manager, *, kind="suspension"):
    """A suspension or revocation order with its notice and hearing recorded (L1, L2), not yet decided."""
    dates = process_dates()
    return services.permit_order_record(
        permit=permit,
        acting_user=manager,
        kind=kind,
        grounds=["violation", "interference"],
        facts="Two SSOs traced to the FSE's lateral; maintenance schedule not followed.",
        notice_mailed_on=dates["mailed"],
        certified_mail_number="9407 1000 0000 0000 0001",
        hearing_on=dates["hearing"],
        hearing_place="Town Hall, Council Chamber",
    )


def final_order(permit, manager, *, kind="suspension", outcome="ordered"):
    """An order through its whole process: notice, hearing, written decision, final (L1-L6)."""
    dates = process_dates()
    order = noticed_order(permit, manager, kind=kind)
    return services.permit_order_decide(
        order=order,
        acting_user=manager,
        decision_on=dates["decision"],
        hearing_officer_name="A. Reyes",
        outcome=outcome,
        decision=f"The permit is ordered {'suspended for 30 days' if kind == 'suspension' else 'revoked'}.",
        decision_mail_number="9407 1000 0000 0000 0002",
        appeal_status="not_appealed",
        final_on=dates["final"],
    )
