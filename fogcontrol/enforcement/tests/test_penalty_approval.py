"""The two-person rule for penalty orders (issue #15; P7, P8): one Hearing Officer or FOG Manager
proposes, a second, different one approves (the order is then issued, served, final unless appealed)
or refuses with the reason. The proposer cannot approve their own; nothing is issued or served, and
the FSE sees nothing, before the approval. Service, API, pages, the work list and their query counts."""

import html

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from conftest import api_as
from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.roles import Role
from fogcontrol.enforcement.models import PenaltyOrder
from fogcontrol.enforcement.selectors.cases import case_detail
from fogcontrol.enforcement.selectors.money import amounts_owed
from fogcontrol.enforcement.selectors.steps import case_timeline
from fogcontrol.enforcement.services.penalties import penalty_order_decide, penalty_order_propose
from fogcontrol.enforcement.tests.helpers_orders import FACTORS, a_case_of_kind, ago
from fogcontrol.notices.models import IssuedDocument
from fogcontrol.program.selectors import town_today
from fogcontrol.testing.queries import assert_queries_do_not_grow

pytestmark = [pytest.mark.django_db, pytest.mark.provision("P7"), pytest.mark.provision("P8")]


def propose(town, case=None, *, by=Role.HEARING_OFFICER, amount=2000):
    return penalty_order_propose(
        acting_user=town.users[by], case=case or a_case_of_kind(town), violation_kind="maintenance", days=3,
        amount=amount, hearing_officer_name="A. Reyes", factors=FACTORS,
    )  # fmt: skip


def approval(**extra):
    today = town_today()
    return {"issued_on": today, "service_method": "personal_delivery", "served_on": today, **extra}


def audit_actions(order) -> list[str]:
    return list(
        AuditEntry.objects.filter(object_id=str(order.pk), action__startswith="penalty_order.")
        .order_by("pk")
        .values_list("action", flat=True)
    )


def page_text(response) -> str:
    return html.unescape(response.content.decode())


def test_a_proposal_takes_no_effect_before_the_second_approval(town):
    order = propose(town)
    assert order.status == "proposed" and order.issued_on is None and order.document_id is None
    assert order.payment_due_on is None and not IssuedDocument.objects.exists()
    # H3: nothing owed; the FSE does not see it, on its own or on its case's timeline.
    assert amounts_owed(order.case.establishment) == []
    fse = town.users[Role.FSE]
    assert not PenaltyOrder.objects.visible_to(fse).exists()
    assert api_as(fse).get(f"/api/v1/enforcement/penalty-orders/{order.pk}/").status_code == 404
    keys = [step.key for step in case_timeline(case_detail(fse, order.case_id), today=town_today())]
    assert not [key for key in keys if key.startswith("penalty")]
    # Staff see it waiting, with who proposed it.
    manager = town.users[Role.FOG_MANAGER]
    steps = {s.key: s for s in case_timeline(case_detail(manager, order.case_id), today=town_today())}
    line = steps["penalty_order_proposed"]
    assert line.state == "due" and f"Proposed by {town.users[Role.HEARING_OFFICER].username}" in line.detail
    assert audit_actions(order) == ["penalty_order.propose"]


def test_the_proposer_cannot_approve_their_own_order(town):
    order = propose(town, by=Role.HEARING_OFFICER)
    with pytest.raises(PermissionDenied, match="second staff member"):
        penalty_order_decide(
            acting_user=town.users[Role.HEARING_OFFICER], order=order, approve=True, **approval()
        )
    with pytest.raises(PermissionDenied):
        penalty_order_decide(acting_user="nightly", order=order, approve=True, **approval())
    order.refresh_from_db()
    assert (
        order.status == "proposed"
        and order.document_id is None
        and audit_actions(order) == ["penalty_order.propose"]
    )


def test_a_second_person_approves_and_the_order_is_issued(town):
    order = propose(town, by=Role.HEARING_OFFICER)
    manager = town.users[Role.FOG_MANAGER]
    issued = penalty_order_decide(acting_user=manager, order=order, approve=True, note="Checked the days.",
                                  **approval())  # fmt: skip
    assert issued.status == "final" and issued.issued_on == town_today() and issued.document_id
    assert issued.payment_due_on > town_today() and issued.decided_by == manager
    assert issued.decision_note == "Checked the days." and "P8" in issued.explanation
    assert [(o.amount) for o in amounts_owed(order.case.establishment)] == [2000]
    assert PenaltyOrder.objects.visible_to(town.users[Role.FSE]).filter(pk=order.pk).exists()
    assert audit_actions(order) == ["penalty_order.propose", "penalty_order.approve"]
    with pytest.raises(StateConflict):
        penalty_order_decide(acting_user=manager, order=order, approve=False, note="Too late.")


def test_an_approval_cannot_issue_before_the_proposal_nor_serve_badly(town):
    order = propose(town)
    manager = town.users[Role.FOG_MANAGER]
    with pytest.raises(ValidationError) as error:
        penalty_order_decide(acting_user=manager, order=order, approve=True, **approval(issued_on=ago(1)))
    assert "issued_on" in error.value.message_dict
    with pytest.raises(ValidationError) as error:
        penalty_order_decide(acting_user=manager, order=order, approve=True,
                             **approval(service_method="registered_mail"))  # fmt: skip
    assert "article_number" in error.value.message_dict
    order.refresh_from_db()
    assert order.status == "proposed" and not IssuedDocument.objects.exists()


def test_a_refusal_keeps_its_reason_and_issues_nothing(town):
    order = propose(town)
    manager = town.users[Role.FOG_MANAGER]
    with pytest.raises(ValidationError) as error:
        penalty_order_decide(acting_user=manager, order=order, approve=False, note=" ")
    assert "note" in error.value.message_dict
    refused = penalty_order_decide(
        acting_user=manager, order=order, approve=False, note="The days are not shown."
    )
    assert refused.status == "refused" and refused.decision_note == "The days are not shown."
    assert refused.document_id is None and refused.issued_on is None and not IssuedDocument.objects.exists()
    assert amounts_owed(order.case.establishment) == []
    assert not PenaltyOrder.objects.visible_to(town.users[Role.FSE]).exists()
    assert audit_actions(order) == ["penalty_order.propose", "penalty_order.refuse"]
    with pytest.raises(StateConflict):
        penalty_order_decide(acting_user=manager, order=order, approve=True, **approval())


def test_the_api_proposes_approves_and_refuses(town):
    case = a_case_of_kind(town)
    officer, manager = town.users[Role.HEARING_OFFICER], town.users[Role.FOG_MANAGER]
    body = {"case": case.pk, "violation_kind": "maintenance", "days": 3, "amount": "2000",
            "hearing_officer_name": "A. Reyes", **FACTORS}  # fmt: skip
    proposed = api_as(officer).post("/api/v1/enforcement/penalty-orders/", body, format="json")
    assert proposed.status_code == 201 and proposed.json()["status"] == "proposed"
    assert proposed.json()["proposed_by"] == officer.username and proposed.json()["document_id"] is None
    url = f"/api/v1/enforcement/penalty-orders/{proposed.json()['id']}/"
    waiting = api_as(manager).get("/api/v1/enforcement/penalty-orders/", {"status": "proposed"})
    assert [row["id"] for row in waiting.json()["results"]] == [proposed.json()["id"]]
    now = town_today().isoformat()
    own = api_as(officer).post(url + "approve/", {"issued_on": now, "service_method": "personal_delivery",
                                                   "served_on": now}, format="json")  # fmt: skip
    assert own.status_code == 403 and "second" in own.json()["detail"]
    assert api_as(manager).post(url + "refuse/", {}, format="json").status_code == 400
    approved = api_as(manager).post(url + "approve/", {"issued_on": now, "service_method": "personal_delivery",
                                                        "served_on": now}, format="json")  # fmt: skip
    assert approved.status_code == 200 and approved.json()["status"] == "final"
    assert approved.json()["decided_by"] == manager.username and approved.json()["document_id"]
    again = api_as(officer).post(url + "refuse/", {"note": "No."}, format="json")
    assert again.status_code == 409
    other = api_as(manager).post("/api/v1/enforcement/penalty-orders/", {**body, "case": a_case_of_kind(town).pk},
                                 format="json")  # fmt: skip
    refused = api_as(officer).post(f"/api/v1/enforcement/penalty-orders/{other.json()['id']}/refuse/",
                                   {"note": "Wrong kind."}, format="json")  # fmt: skip
    assert refused.status_code == 200 and refused.json()["status"] == "refused"
    assert refused.json()["decision_note"] == "Wrong kind." and refused.json()["issued_on"] is None


def test_the_pages_propose_list_and_decide(town, client):
    case = a_case_of_kind(town)
    officer, manager = town.users[Role.HEARING_OFFICER], town.users[Role.FOG_MANAGER]
    client.force_login(officer)
    form = {"violation_kind": "maintenance", "days": 3, "amount": "2000", "hearing_officer_name": "A. Reyes",
            **FACTORS}  # fmt: skip
    done = client.post(f"/enforcement/cases/{case.pk}/later/penalty-order/", form, follow=True)
    assert "second Hearing Officer or FOG Manager" in page_text(done)
    order = PenaltyOrder.objects.get()
    assert order.status == "proposed"
    worklist = page_text(client.get("/enforcement/hearings/work-list/"))
    assert "Penalty orders waiting for a second approval" in worklist and order.reference in worklist
    assert "Your proposal" in worklist
    detail = page_text(client.get(f"/enforcement/penalty-orders/{order.pk}/"))
    assert "You proposed this order" in detail and "Approve and issue the order" not in detail
    now = town_today().isoformat()
    own = client.post(f"/enforcement/penalty-orders/{order.pk}/approve/",
                      {"issued_on": now, "service_method": "personal_delivery", "served_on": now})  # fmt: skip
    assert own.status_code == 409 and "second staff member" in page_text(own)
    client.force_login(manager)
    detail = page_text(client.get(f"/enforcement/penalty-orders/{order.pk}/"))
    assert "Waiting for a second approval" in detail and "Approve and issue the order" in detail
    blank = client.post(f"/enforcement/penalty-orders/{order.pk}/refuse/", {"note": ""})
    assert blank.status_code == 400
    approved = client.post(f"/enforcement/penalty-orders/{order.pk}/approve/",
                           {"issued_on": now, "service_method": "personal_delivery", "served_on": now}, follow=True)  # fmt: skip
    text = page_text(approved)
    assert "approved and issued" in text and "Final on issuance" in text and "The order as issued" in text
    assert order.reference not in page_text(client.get("/enforcement/hearings/work-list/"))
    case_page = page_text(client.get(f"/enforcement/cases/{case.pk}/"))
    assert "The order and its approval" in case_page


def _proposals(town):
    def add(count):
        for _ in range(count):
            propose(town)

    return add


def test_the_waiting_lists_take_the_same_exact_queries_for_few_rows_and_many(town, client):
    client.force_login(town.users[Role.FOG_MANAGER])
    # session, user, Town profile twice, three hearing lists, holidays, rulesets, the waiting orders.
    assert_queries_do_not_grow(
        client, _proposals(town), {"/enforcement/hearings/work-list/": 10}, grows=False
    )
    # count and page, and the violations prefetched.
    assert_queries_do_not_grow(
        api_as(town.users[Role.FOG_MANAGER]),
        _proposals(town),
        {"/api/v1/enforcement/penalty-orders/": 4},
        data={"status": "proposed"},
    )
