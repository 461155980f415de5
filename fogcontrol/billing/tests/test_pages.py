"""What billing's users see: the FSE's own account (Q1, Q2), the clerk's work list, the exports the
licence office takes (Q2), the PDFs, the API answers, and exact query counts for every list."""

import dataclasses
import io
from decimal import Decimal

import pytest
from openpyxl import load_workbook

from conftest import api_as
from fogcontrol.billing import services
from fogcontrol.billing.models import Lien, Payment, invoice_kind_choices
from fogcontrol.billing.tests.helpers import clerk, days_ago, invoice
from fogcontrol.core.roles import Role
from fogcontrol.program.selectors import ruleset_on
from fogcontrol.testing.factories import EstablishmentFactory
from fogcontrol.testing.queries import assert_queries_do_not_grow

pytestmark = pytest.mark.django_db


def _text(response) -> str:
    return response.content.decode()


@pytest.mark.provision("Q2")
def test_q2_the_fse_sees_its_delinquent_invoice_and_its_statement_but_not_another_account(town, client):
    late = invoice(town, "120.00", notice_date=days_ago(100))
    other = invoice(town, "9.00", establishment=town.other_fse)
    services.billing_nightly()
    client.force_login(town.users[Role.FSE])
    page = _text(client.get(f"/billing/accounts/{late.debtor_id}/"))
    assert "Delinquent" in page and "$120.00" in page and "Closing balance" in page
    assert "Record a payment" not in page  # the FSE reads its account; staff record payments
    assert client.get(f"/billing/accounts/{other.debtor_id}/").status_code == 404
    assert client.get(f"/billing/invoices/{late.pk}/pdf/")["Content-Type"] == "application/pdf"


@pytest.mark.provision("Q1")
def test_q1_the_clerk_records_a_partial_payment_from_the_account_page_and_prints_the_receipt(town, client):
    issued = invoice(town, "120.00", notice_date=days_ago(10))
    client.force_login(clerk(town))
    answer = client.post(
        f"/billing/accounts/{issued.debtor_id}/pay/",
        {"amount": "20.00", "method": "cheque", "reference": "", "received_on": days_ago(0).isoformat()},
        follow=True,
    )
    assert "reference" in _text(answer) and "Nothing was saved" in _text(answer)
    client.post(
        f"/billing/accounts/{issued.debtor_id}/pay/",
        {"amount": "20.00", "method": "cheque", "reference": "1001", "received_on": days_ago(0).isoformat()},
    )
    page = _text(client.get(f"/billing/invoices/{issued.pk}/"))
    assert "$100.00" in page  # still owed
    payment = issued.allocations.get().payment
    assert client.get(f"/billing/payments/{payment.pk}/receipt/").content.startswith(b"%PDF")


@pytest.mark.provision("Q2")
def test_q2_the_licence_office_takes_the_hold_list_as_csv_xlsx_and_asks_by_licence(town, client):
    late = invoice(town, "120.00", notice_date=days_ago(100))
    client.force_login(clerk(town))
    csv = b"".join(client.get("/billing/licence-holds.csv").streaming_content).decode()
    assert town.own_fse.licence_number in csv and "120.00" in csv
    assert csv == b"".join(client.get("/billing/licence-holds/?format=csv").streaming_content).decode()
    xlsx = client.get("/billing/licence-holds.xlsx")
    book = load_workbook(io.BytesIO(b"".join(xlsx.streaming_content)))
    rows = list(book.active.values)
    assert rows[1][0] == town.own_fse.licence_number and Decimal(str(rows[1][2])) == Decimal("120.00")
    api = api_as(town.users[Role.STAFF_READONLY])
    held = api.get("/api/v1/licence-holds/", {"licence": town.own_fse.licence_number}).json()
    assert held == {
        "licence": town.own_fse.licence_number,
        "held": True,
        "amount": "120.00",
        "since": late.delinquent_from.isoformat(),
    }
    clear = api.get("/api/v1/licence-holds/", {"licence": town.other_fse.licence_number}).json()
    assert clear["held"] is False and clear["amount"] == "0.00" and clear["since"] is None


def test_the_statement_api_takes_a_period_and_refuses_a_bad_date(town):
    issued = invoice(town, "50.00", notice_date=days_ago(40))
    services.payment_record(acting_user=clerk(town), debtor=issued.debtor, amount="20.00", method="cash")
    api = api_as(town.users[Role.FSE])
    url = f"/api/v1/accounts/{issued.debtor_id}/statement/"
    whole = api.get(url).json()
    assert (whole["opening"], whole["closing"]) == ("0.00", "30.00")
    recent = api.get(url, {"from": days_ago(1).isoformat()}).json()
    assert recent["opening"] == "50.00" and [line["amount"] for line in recent["lines"]] == ["-20.00"]
    bad = api.get(url, {"from": "yesterday"})
    assert bad.status_code == 400 and "start" in bad.json()


def test_the_payments_api_records_and_allocates_and_names_a_bad_field(town):
    issued = invoice(town, "50.00", notice_date=days_ago(4))
    api = api_as(clerk(town))
    bad = api.post(
        "/api/v1/payments/", {"debtor": issued.debtor_id, "amount": "5.00", "method": "barter"}, format="json"
    )
    assert bad.status_code == 400 and "method" in bad.json()
    made = api.post(
        "/api/v1/payments/",
        {"debtor": issued.debtor_id, "amount": "60.00", "method": "card", "reference": "A1"},
        format="json",
    )
    assert made.status_code == 201
    assert made.json()["unallocated"] == "10.00" and made.json()["allocations"][0]["amount"] == "50.00"


def test_the_invoices_api_issues_one_invoice_per_kind(town):
    from fogcontrol.billing.tests.helpers import charge

    debtor = charge(town, "10.00").debtor
    charge(town, "300.00", kind="P8", penalty=True, provision="P7")
    answer = api_as(clerk(town)).post("/api/v1/invoices/", {"debtor": debtor.pk}, format="json")
    assert answer.status_code == 201
    assert sorted(row["kind"] for row in answer.json()) == ["P8", "Q1"]


def _add_rows(town):
    def add(count):
        for _ in range(count):
            fse = EstablishmentFactory()
            fee = invoice(town, "120.00", establishment=fse, notice_date=days_ago(100))
            invoice(
                town,
                "500.00",
                establishment=fse,
                kind="P8",
                penalty=True,
                provision="P7",
                notice_date=days_ago(130),
            )
            services.payment_record(acting_user=clerk(town), debtor=fee.debtor, amount="10.00", method="cash")
            services.write_off_request(acting_user=clerk(town), invoice=fee, amount="5.00", reason="t")
        services.billing_nightly()
        for lien in Lien.objects.filter(status=Lien.Status.LISTED):  # two-person rule: asked, waiting
            services.lien_request(acting_user=clerk(town), lien=lien)

    return add


LISTS = {
    "/billing/": 14,
    "/billing/accounts/": 5,
    "/billing/invoices/": 6,
    "/billing/payments/": 5,
    "/billing/write-offs/": 4,
    "/billing/licence-holds/": 5,
    "/billing/liens/": 7,
    "/billing/lien-approvals/": 4,
    "/billing/reports/": 15,  # + the ruleset in force on the last day: the aging columns are cut at its periods
}
API_LISTS = {
    "/api/v1/invoices/": 4,
    "/api/v1/payments/": 4,
    "/api/v1/accounts/": 3,
    "/api/v1/liens/": 3,
    "/api/v1/licence-holds/": 3,
}


def test_billing_pages_take_an_exact_number_of_queries(town, client):
    client.force_login(town.users[Role.FOG_MANAGER])
    assert_queries_do_not_grow(client, _add_rows(town), LISTS)


def test_billing_api_lists_take_an_exact_number_of_queries(town):
    assert_queries_do_not_grow(api_as(town.users[Role.FOG_MANAGER]), _add_rows(town), API_LISTS)


@pytest.mark.provision("Q2")
def test_q2_the_portal_home_shows_a_delinquent_account(town, client):
    invoice(town, "120.00", notice_date=days_ago(100))
    client.force_login(town.users[Role.FSE])
    page = _text(client.get("/"))
    assert "Owed to the Town" in page and "$120.00" in page and "business licence is held" in page


@pytest.mark.provision("Q2")
def test_q2_the_establishment_page_shows_what_it_owes_and_that_it_is_delinquent(town, client):
    invoice(town, "120.00", notice_date=days_ago(100))
    client.force_login(town.users[Role.FSE])
    page = _text(client.get(f"/registry/establishments/{town.own_fse.pk}/"))
    assert "Owed to the Town" in page and "$120.00" in page and "Delinquent" in page
    client.force_login(town.users[Role.HAULER])
    assert "Owed to the Town" not in _text(client.get(f"/registry/establishments/{town.own_fse.pk}/"))


@pytest.mark.provision("Q1")
def test_q1_the_clerk_may_apply_a_payment_to_a_chosen_invoice_and_the_rest_is_credit(town, client):
    old = invoice(town, "100.00", notice_date=days_ago(20))
    new = invoice(town, "60.00", notice_date=days_ago(5))
    client.force_login(clerk(town))
    form = _text(client.get(f"/billing/accounts/{old.debtor_id}/"))
    assert "The oldest invoice first" in form and f"{new.number} (owes $60.00)" in form
    client.post(
        f"/billing/accounts/{old.debtor_id}/pay/",
        {"amount": "70.00", "method": "cash", "received_on": days_ago(0).isoformat(), "apply_to": new.pk},
    )
    from fogcontrol.billing.tests.helpers import account, fresh

    assert fresh(new).status == "paid" and fresh(old).outstanding == Decimal("100.00")
    assert account(old.debtor).credit == Decimal("10.00")


@pytest.mark.provision("Q1")
def test_a_payment_sent_back_shows_each_error_beside_its_field_and_keeps_what_was_typed(town, client):
    issued = invoice(town, "120.00", notice_date=days_ago(10))
    client.force_login(clerk(town))
    answer = client.post(
        f"/billing/accounts/{issued.debtor_id}/pay/",
        {"amount": "20.00", "method": "cheque", "reference": "", "received_on": "not a date"},
    )
    assert answer.status_code == 400
    page = _text(answer)
    assert 'id="id_pay_received_on_error"' in page and 'aria-describedby="id_pay_received_on_error' in page
    assert 'value="20.00"' in page  # what was typed is still there
    assert "Nothing was saved" in page
    assert not Payment.objects.exists()
    # A refusal of the service (a cheque needs its number) stands beside its field too.
    answer = client.post(
        f"/billing/accounts/{issued.debtor_id}/pay/",
        {"amount": "20.00", "method": "cheque", "reference": "", "received_on": days_ago(0).isoformat()},
    )
    assert answer.status_code == 400 and 'id="id_pay_reference_error"' in _text(answer)
    assert not Payment.objects.exists()


@pytest.mark.provision("Q1")
@pytest.mark.provision("P8")
@pytest.mark.provision("N1")
def test_q1_p8_n1_the_billed_under_choices_state_the_periods_of_the_ruleset_in_force(town, client):
    """The account page's "Billed under" words each kind's period from the ruleset, so a Town that
    amends a period sees its own number, not the one adopted first."""
    issued = invoice(town, "10.00", notice_date=days_ago(1))
    client.force_login(clerk(town))
    page = _text(client.get(f"/billing/accounts/{issued.debtor_id}/"))
    assert "delinquent after 45 days" in page and "within 30 days; P9 lien" in page
    assert "within 45 days of invoicing" in page
    amended = dataclasses.replace(
        ruleset_on(days_ago(0)),
        fee_delinquency_days=60,
        penalty_payment_days=20,
        cost_recovery_payment_days=50,
    )
    labels = [str(label) for _kind, label in invoice_kind_choices(amended)]
    assert (
        "delinquent after 60 days" in labels[0]
        and "within 20 days" in labels[1]
        and "within 50 days" in labels[2]
    )


def test_q1_an_invoice_delivery_sent_back_shows_its_error_beside_the_field_and_keeps_what_was_typed(
    town, client
):
    """The invoice page's forms go through billing's shared `act`: a form that does not validate is
    the invoice page again (400) with the error beside its field, not a message on a blank form."""
    issued = invoice(town, "120.00", notice_date=days_ago(10))
    client.force_login(clerk(town))
    answer = client.post(
        f"/billing/invoices/{issued.pk}/deliver/",
        {"method": "post", "sent_to": "12 Main St, The Town", "sent_on": "not a date"},
    )
    assert answer.status_code == 400
    page = _text(answer)
    assert 'id="id_deliver_sent_on_error"' in page and 'aria-describedby="id_deliver_sent_on_error' in page
    assert 'value="12 Main St, The Town"' in page
    assert not issued.deliveries.exists()


@pytest.mark.provision("Q1")
def test_q1_a_write_off_the_service_refuses_stands_beside_its_field_with_the_reason_kept(town, client):
    issued = invoice(town, "120.00", notice_date=days_ago(10))
    client.force_login(clerk(town))
    answer = client.post(
        f"/billing/invoices/{issued.pk}/write-off/",
        {"amount": "500.00", "reason": "Business closed for good"},
    )
    assert answer.status_code == 400
    page = _text(answer)
    assert 'id="id_write_off_amount_error"' in page and "write off no more" in page
    assert "Business closed for good" in page and 'value="500.00"' in page
    assert not issued.write_offs.exists()
