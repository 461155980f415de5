"""The case timeline shows the later steps with their provisions and dates: the complaint served (P5),
the penalty order and its payment due (P7, P8), the termination of service and its costs (O1, O2)."""

import pytest

from fogcontrol.core.roles import Role
from fogcontrol.enforcement.selectors.cases import case_detail
from fogcontrol.enforcement.selectors.steps import case_timeline, next_due
from fogcontrol.enforcement.tests.helpers_orders import (
    FACTORS,
    a_case_of_kind,
    a_complaint,
    ago,
    issue_penalty_order,
)
from fogcontrol.program.selectors import town_today

pytestmark = pytest.mark.django_db


@pytest.mark.provision("P8")
def test_p5_p7_p8_the_timeline_shows_the_complaint_and_the_penalty_due(town):
    case = a_case_of_kind(town)
    complaint = a_complaint(town, case, served_days_ago=50, hearing_after=20)
    order = issue_penalty_order(
        acting_user=town.users[Role.HEARING_OFFICER], case=case, violation_kind="maintenance", days=4,
        amount=2500, hearing_officer_name="A. Reyes", factors=FACTORS, issued_on=ago(5),
        service_method="personal_delivery", served_on=ago(5),
    )  # fmt: skip
    steps = case_timeline(case_detail(town.users[Role.FOG_MANAGER], case.pk), today=town_today())
    by_key = {step.key: step for step in steps}
    assert by_key["complaint"].provision == "P5" and complaint.reference in by_key["complaint"].title
    assert by_key["penalty_order"].provision == "P7" and "$2,500.00" in by_key["penalty_order"].title
    due = by_key["penalty_due"]
    assert due.provision == "P8" and due.due_on == order.payment_due_on and "P8" in due.explanation
    assert next_due(steps).due_on <= order.payment_due_on


@pytest.mark.provision("H3")
def test_h3_an_unpaid_penalty_order_is_an_amount_owed(town):
    from fogcontrol.enforcement.selectors.money import amounts_owed

    case = a_case_of_kind(town)
    order = issue_penalty_order(
        acting_user=town.users[Role.HEARING_OFFICER], case=case, violation_kind="maintenance", days=1,
        amount=750, hearing_officer_name="A. Reyes", factors=FACTORS, issued_on=ago(5),
        service_method="personal_delivery", served_on=ago(5),
    )  # fmt: skip
    owed = amounts_owed(case.establishment)
    assert [(o.label.split(",")[0], o.amount) for o in owed] == [(f"Penalty order {order.reference}", 750)]
