"""The billing part of the demo town: accounts in every state (Q1, Q2, P8, P9, P12, N1), the demo
FSE's delinquent account on its page, and the books reconciling."""

import pytest
from django.test import Client

from fogcontrol.accounts.models import User
from fogcontrol.billing.models import Invoice, Lien, WriteOff
from fogcontrol.billing.reports import billing_report
from fogcontrol.billing.selectors import licence_holds
from fogcontrol.demo.run import seed_demo
from fogcontrol.program.selectors import town_today


@pytest.mark.provision("Q2")
@pytest.mark.django_db(transaction=False)
def test_q2_demo_town_has_accounts_in_every_state(django_capture_on_commit_callbacks):
    result = seed_demo(establishments=40, seed=7)
    assert ("fogcontrol.billing.demo.seed", True) in [tuple(row[:2]) for row in result.seeders]
    statuses = set(Invoice.objects.values_list("status", flat=True))
    assert statuses == {"open", "paid", "cancelled", "written_off"}
    assert Invoice.objects.filter(status="open", delinquent_on__isnull=False).exists()
    # Two-person rule: the demo FSE's lien waits for a second approval; the recorded ones were approved.
    assert {lien.status for lien in Lien.objects.all()} == {"listed", "requested", "recorded", "released"}
    assert not Lien.objects.filter(status__in=("recorded", "released"), decided_by__isnull=True).exists()
    assert WriteOff.objects.filter(status="pending").exists()
    assert Invoice.objects.filter(kind="N1", debtor__party__isnull=False).exists()
    fse = User.objects.get(username="fse").establishments.get()
    assert fse.licence_number in {hold.licence_number for hold in licence_holds(town_today())}
    report = billing_report(town_today().replace(year=town_today().year - 1), town_today())
    assert report.reconciles and report.penalty_account_balance > 0
    client = Client()
    client.force_login(User.objects.get(username="fse"))
    page = client.get(f"/billing/accounts/{fse.billing_debtor.pk}/").content.decode()
    assert "Delinquent" in page
