"""The two-person rule in billing (issue #15): a lien (P9) is asked for by one authorised person and
recorded only once a second, different one approved it; a refusal keeps its reason and records
nothing. And a penalty order (P7, P8) is billed only once a second person approved it: a proposal or a
refused order is never picked up, nor owed."""

import datetime as dt
import html
import re

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from conftest import api_as
from fogcontrol.audit.models import AuditEntry
from fogcontrol.billing import services
from fogcontrol.billing.models import Charge, Lien
from fogcontrol.billing.tests.helpers import clerk, days_ago, invoice, manager
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.owed import amounts_owed
from fogcontrol.core.roles import Role
from fogcontrol.enforcement.services.penalties import penalty_order_decide, penalty_order_propose
from fogcontrol.enforcement.tests.helpers_orders import FACTORS, a_case_of_kind
from fogcontrol.program.selectors import town_today

pytestmark = [pytest.mark.django_db, pytest.mark.provision("P9")]


def listed_lien(town) -> Lien:
    invoice(town, "500.00", kind="P8", penalty=True, provision="P7", notice_date=days_ago(130))
    services.billing_nightly()
    return Lien.objects.get()


def actions(lien) -> list[str]:
    return list(
        AuditEntry.objects.filter(object_id=str(lien.pk), action__startswith="billing.lien_")
        .order_by("pk")
        .values_list("action", flat=True)
    )


def described_by(page: str, error_id: str) -> bool:
    """A control (or a group's fieldset) names the error among what describes it."""
    return re.search(rf'aria-describedby="[^"]*\b{re.escape(error_id)}\b', page) is not None


def record(town, lien, who=None):
    return services.lien_record(
        acting_user=who or clerk(town), lien=lien, recorded_on=days_ago(0), document_number="2026-0001"
    )


def test_p9_a_lien_is_not_recorded_before_a_second_person_approves_it(town):
    lien = listed_lien(town)
    with pytest.raises(StateConflict, match="second"):
        record(town, lien)
    asked = services.lien_request(acting_user=clerk(town), lien=lien, note="Owner of record checked.")
    assert asked.status == Lien.Status.REQUESTED and asked.requested_by == clerk(town)
    with pytest.raises(StateConflict, match="second"):
        record(town, lien)
    with pytest.raises(PermissionDenied, match="second staff member"):
        services.lien_decide(acting_user=clerk(town), lien=lien, approve=True)
    with pytest.raises(PermissionDenied):
        services.lien_decide(acting_user="billing.nightly", lien=lien, approve=True)
    assert Lien.objects.get().status == Lien.Status.REQUESTED
    approved = services.lien_decide(acting_user=manager(town), lien=lien, approve=True)
    assert approved.status == Lien.Status.APPROVED and approved.decided_by == manager(town)
    recorded = record(town, lien)
    assert recorded.status == Lien.Status.RECORDED and recorded.recording_number == "2026-0001"
    assert actions(lien) == ["billing.lien_list", "billing.lien_request", "billing.lien_approve",
                             "billing.lien_record"]  # fmt: skip


def test_p9_a_refused_lien_keeps_its_reason_records_nothing_and_may_be_asked_again(town):
    lien = services.lien_request(acting_user=clerk(town), lien=listed_lien(town))
    with pytest.raises(ValidationError) as error:
        services.lien_decide(acting_user=manager(town), lien=lien, approve=False, note="")
    assert "note" in error.value.message_dict
    refused = services.lien_decide(acting_user=manager(town), lien=lien, approve=False, note="Wrong parcel.")
    assert refused.status == Lien.Status.REFUSED and refused.decision_note == "Wrong parcel."
    with pytest.raises(StateConflict):
        record(town, lien)
    assert Lien.objects.get().recorded_on is None
    again = services.lien_request(acting_user=manager(town), lien=lien, note="Parcel corrected.")
    assert again.status == Lien.Status.REQUESTED and again.decision_note == "" and again.decided_by is None
    assert (
        services.lien_decide(acting_user=clerk(town), lien=lien, approve=True).status == Lien.Status.APPROVED
    )


def test_p9_a_paid_penalty_is_not_liened(town):
    lien = services.lien_request(acting_user=clerk(town), lien=listed_lien(town))
    services.payment_record(acting_user=clerk(town), debtor=lien.debtor, amount="500.00", method="cash")
    with pytest.raises(StateConflict, match="nothing to lien"):
        services.lien_decide(acting_user=manager(town), lien=lien, approve=True)


def test_p9_the_api_asks_approves_refuses_and_records(town):
    lien = listed_lien(town)
    url = f"/api/v1/liens/{lien.pk}/"
    early = api_as(clerk(town)).post(url + "record/", {"recorded_on": town_today(), "document_number": "D"},
                                     format="json")  # fmt: skip
    assert early.status_code == 409 and "second" in early.json()["detail"]
    asked = api_as(clerk(town)).post(url + "request/", {"note": "60 days delinquent."}, format="json")
    assert asked.status_code == 200 and asked.json()["status"] == "requested"
    assert asked.json()["requested_by"] == clerk(town).username
    own = api_as(clerk(town)).post(url + "approve/", {}, format="json")
    assert own.status_code == 403 and "second" in own.json()["detail"]
    assert api_as(manager(town)).post(url + "refuse/", {}, format="json").status_code == 400
    waiting = api_as(manager(town)).get("/api/v1/liens/", {"status": "requested"})
    assert [row["id"] for row in waiting.json()["results"]] == [lien.pk]
    approved = api_as(manager(town)).post(url + "approve/", {"note": "Checked."}, format="json")
    assert approved.status_code == 200 and approved.json()["status"] == "approved"
    assert approved.json()["decided_by"] == manager(town).username
    done = api_as(clerk(town)).post(url + "record/", {"recorded_on": town_today(), "document_number": "D-7"},
                                    format="json")  # fmt: skip
    assert done.status_code == 200 and done.json()["status"] == "recorded"
    assert (
        api_as(town.users[Role.INSPECTOR]).post(url + "refuse/", {"note": "x"}, format="json").status_code
        == 403
    )


def test_p9_the_pages_ask_list_and_decide(town, client):
    lien = listed_lien(town)
    client.force_login(clerk(town))
    client.post(f"/billing/liens/{lien.pk}/request/", {"note": "Owner checked."})
    assert Lien.objects.get().status == Lien.Status.REQUESTED
    work = html.unescape(client.get("/billing/").content.decode())
    assert "Liens waiting for a second approval" in work and "(you: someone else approves)" in work
    page = html.unescape(client.get("/billing/lien-approvals/").content.decode())
    assert "You asked for this lien" in page
    own = client.post(f"/billing/liens/{lien.pk}/decide/", {"approve": "yes"}, follow=True)
    assert "second staff member" in html.unescape(own.content.decode())
    assert Lien.objects.get().status == Lien.Status.REQUESTED
    client.force_login(manager(town))
    assert "Record decision" in client.get("/billing/lien-approvals/").content.decode()
    client.post(f"/billing/liens/{lien.pk}/decide/", {"approve": "yes", "note": "Fine."})
    assert Lien.objects.get().status == Lien.Status.APPROVED
    listing = html.unescape(client.get("/billing/liens/").content.decode())
    assert "approved by" in listing and "Recorded on" in listing
    client.post(f"/billing/liens/{lien.pk}/record/", {"on": town_today(), "document_number": "2026-77"})
    assert Lien.objects.get().status == Lien.Status.RECORDED


@pytest.mark.provision("P8")
def test_p8_a_penalty_order_is_billed_only_once_a_second_person_approved_it(town):
    officer = town.users[Role.HEARING_OFFICER]
    case = a_case_of_kind(town)

    def propose(amount):
        return penalty_order_propose(acting_user=officer, case=case, violation_kind="maintenance", days=3,
                                     amount=amount, hearing_officer_name="A. Reyes", factors=FACTORS)  # fmt: skip

    waiting, refused = propose(1000), propose(1500)
    penalty_order_decide(acting_user=manager(town), order=refused, approve=False, note="Days not proven.")
    assert services.charges_pickup(acting_user="billing.nightly") == 0
    assert not Charge.objects.exists() and amounts_owed(case.establishment, on=town_today()) == []
    today = town_today()
    penalty_order_decide(acting_user=manager(town), order=waiting, approve=True, issued_on=today,
                         service_method="personal_delivery", served_on=today)  # fmt: skip
    assert services.charges_pickup(acting_user="billing.nightly") == 1
    assert [(c.source_id, c.amount) for c in Charge.objects.all()] == [(waiting.pk, 1000)]


def test_p9_a_lien_record_sent_back_shows_its_error_beside_the_field_and_keeps_what_was_typed(town, client):
    """The lien list's one-line forms go through billing's shared `act` like the invoice page's: a
    date the service refuses (P9: recorded today or earlier) comes back on the list (400) with the
    error beside its field, tied to it by aria-describedby, and the document number kept."""
    lien = listed_lien(town)
    services.lien_request(acting_user=clerk(town), lien=lien)
    services.lien_decide(acting_user=manager(town), lien=lien, approve=True)
    client.force_login(clerk(town))
    tomorrow = (town_today() + dt.timedelta(days=1)).isoformat()
    answer = client.post(f"/billing/liens/{lien.pk}/record/", {"on": tomorrow, "document_number": "2026-77"})
    assert answer.status_code == 400
    page = html.unescape(answer.content.decode())
    error_id = f"id_record{lien.pk}_on_error"
    assert f'id="{error_id}"' in page and described_by(page, error_id)
    assert "Give the day it was recorded (today or earlier)." in page
    assert 'value="2026-77"' in page and "Nothing was saved" in page
    assert Lien.objects.get().status == Lien.Status.APPROVED
    # A form that does not validate comes back the same way (a missing document number).
    answer = client.post(f"/billing/liens/{lien.pk}/record/", {"on": town_today().isoformat()})
    assert answer.status_code == 400
    assert described_by(answer.content.decode(), f"id_record{lien.pk}_document_number_error")


def test_p9_a_lien_refused_without_its_reason_is_sent_back_beside_the_note(town, client):
    """Two-person rule: a refusal keeps its reason. Refused without one, the approvals list comes back
    (400) with the message beside that lien's note, and the lien is still waiting."""
    lien = services.lien_request(acting_user=clerk(town), lien=listed_lien(town))
    client.force_login(manager(town))
    answer = client.post(f"/billing/liens/{lien.pk}/decide/", {"approve": "no", "note": "  "})
    assert answer.status_code == 400
    page = html.unescape(answer.content.decode())
    error_id = f"id_decide{lien.pk}_note_error"
    assert f'id="{error_id}"' in page and described_by(page, error_id)
    assert "Say why the lien is refused" in page
    assert Lien.objects.get().status == Lien.Status.REQUESTED
    # No choice made: the error stands beside the group of choices (its fieldset).
    answer = client.post(f"/billing/liens/{lien.pk}/decide/", {"note": "Wrong parcel."})
    page = answer.content.decode()
    assert answer.status_code == 400 and described_by(page, f"id_decide{lien.pk}_approve_error")
    assert "Wrong parcel." in page


@pytest.mark.provision("Q1")
def test_q1_a_write_off_refused_without_its_reason_is_sent_back_beside_the_note(town, client):
    issued = invoice(town, "120.00", notice_date=days_ago(10))
    asked = services.write_off_request(
        acting_user=clerk(town), invoice=issued, amount="5.00", reason="Small."
    )
    client.force_login(manager(town))
    answer = client.post(f"/billing/write-offs/{asked.pk}/decide/", {"approve": "no"})
    assert answer.status_code == 400
    page = html.unescape(answer.content.decode())
    assert (
        described_by(page, f"id_decide{asked.pk}_note_error") and "Say why the write-off is refused" in page
    )
    asked.refresh_from_db()
    assert asked.status == asked.Status.PENDING
