"""Issue 18: one case that receives every later letter of enforcement (``documents_orders``): the
administrative complaint (P5), the decision on it (P6), the notice of proposed suspension (L1, L2),
a continuance's hearing notice (L3), the emergency suspension order (M1), its decision (M3), the
termination of sewer service (O1) and a penalty order (P7, P8). Returns each letter by its key."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from fogcontrol.core.roles import Role
from fogcontrol.enforcement.models import Hearing
from fogcontrol.enforcement.services.hearings import hearing_continue, hearing_decide
from fogcontrol.enforcement.services.suspensions import emergency_suspension_order, suspension_notice_issue
from fogcontrol.enforcement.services.terminations import service_terminate
from fogcontrol.enforcement.tests.helpers_orders import (
    FACTORS,
    a_case_of_kind,
    a_complaint,
    a_permit,
    ago,
    issue_penalty_order,
)
from fogcontrol.notices.models import IssuedDocument
from fogcontrol.program.selectors import ruleset_on, town_calendar
from fogcontrol.rules.deadlines import revocation_hearing_window

# What staff and the hearing officer write, printed as written (in Spanish here, as they would).
WRITTEN = {
    "facts": "Dos desbordes de alcantarillado causados por la lateral del establecimiento.",
    "reason": "El abogado no puede asistir",
    "determination": "Grasa acumulada en la calle Main.",
    "outcome": "Se confirma la orden de emergencia.",
    "how": "Lateral taponada en el registro.",
    "place": "Town Hall, Council Chamber",
}


def every_later_letter(town) -> dict[str, IssuedDocument]:
    manager, officer = town.users[Role.FOG_MANAGER], town.users[Role.HEARING_OFFICER]
    a_permit(town)
    case = a_case_of_kind(town)
    letters = {}
    complaint = a_complaint(town, case, served_days_ago=40, hearing_after=20)
    letters["enforcement_complaint"] = complaint.document_id
    heard = hearing_decide(
        acting_user=officer, hearing=complaint.hearing, held_on=ago(20), decided_on=ago(19),
        hearing_officer_name="A. Reyes", outcome_text="Se impone una multa de $4,000.", article_number="9407 3",
    )  # fmt: skip
    letters["enforcement_decision"] = heard.explanation["decision_document"]
    mailed = ago(5)
    window = revocation_hearing_window(mailed, ruleset=ruleset_on(mailed), calendar=town_calendar())
    suspension = suspension_notice_issue(
        acting_user=manager, case=case, kind="suspension", grounds=["violation", "interference"],
        facts=WRITTEN["facts"], mailed_on=mailed, article_number="9407 2222 0000 0001",
        hearing_on=window.earliest_business_day, hearing_place=WRITTEN["place"],
    )  # fmt: skip
    letters["enforcement_suspension_notice"] = suspension.explanation["notice_document"]
    hearing_continue(
        acting_user=officer, hearing=suspension, new_date=suspension.scheduled_on + dt.timedelta(days=7),
        requested_by="respondent", reason=WRITTEN["reason"],
    )  # fmt: skip
    letters["enforcement_hearing_notice"] = Hearing.objects.get(pk=suspension.pk).explanation[
        "continuance_notice"
    ]
    emergency = emergency_suspension_order(
        acting_user=manager, case=case, ordered_on=ago(20), determination=WRITTEN["determination"],
        determined_by="FOG Manager", hearing_place=WRITTEN["place"],
    )  # fmt: skip
    letters["enforcement_emergency_order"] = emergency.explanation["order_document"]
    decided = hearing_decide(
        acting_user=officer, hearing=emergency, held_on=emergency.scheduled_on, decided_on=emergency.scheduled_on,
        hearing_officer_name="A. Reyes", outcome_text=WRITTEN["outcome"], article_number="9407 5",
    )  # fmt: skip
    letters["enforcement_decision_m3"] = decided.explanation["decision_document"]
    termination = service_terminate(
        acting_user=manager, case=case, terminated_on=ago(3), how=WRITTEN["how"],
        permit_order=emergency.permit_order, cost=Decimal("850"), owed_by="Blue Plate Diner LLC",
    )  # fmt: skip
    letters["enforcement_termination_notice"] = termination.document_id
    order = issue_penalty_order(
        acting_user=officer, issued_on=ago(3), service_method="registered_mail", served_on=ago(2),
        article_number="RR 1", case=case, violation_kind="maintenance", days=10, amount=Decimal("20000"),
        hearing_officer_name="A. Reyes", factors=FACTORS,
    )  # fmt: skip
    letters["enforcement_penalty_order"] = order.document_id
    return {name: IssuedDocument.objects.get(pk=pk) for name, pk in letters.items()}
