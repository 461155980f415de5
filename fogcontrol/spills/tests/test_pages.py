"""The spill pages: staff record an overflow and see its State category with the working, link an
FSE and record a cost with its N1 due date; an FSE reports a spill and sees the written report's due
date at once, then sends it (I1, I2, N1, J1, J2)."""

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from fogcontrol.core.roles import Role
from fogcontrol.spills.models import Spill, SpillCost, SpillReport
from fogcontrol.testing.auth import force_login_verified

pytestmark = pytest.mark.django_db


def _as(role, town) -> Client:
    client = Client()
    force_login_verified(client, town.users[role])
    return client


@pytest.mark.provision("I1")
def test_i1_record_a_spill_link_an_fse_and_record_a_cost_on_the_pages(town):
    client = _as(Role.INSPECTOR, town)
    answer = client.post(reverse("spills:new"), {
        "kind": "sso", "address": "100 Main Street", "started_at": "2026-06-03T10:00", "volume_spilled": "1500",
        "volume_reached_surface_water": "0", "destination": "street", "cause": "grease",
    })  # fmt: skip
    spill = Spill.objects.get()
    assert answer.status_code == 302 and spill.category == "2"
    page = client.get(reverse("spills:detail", args=[spill.pk])).content.decode()
    assert "Category 2" in page and "WQ 2022-0103-DWQ" in page
    client.post(
        reverse("spills:link", args=[spill.pk]), {"establishment": town.own_fse.pk, "reason": "Upstream"}
    )
    assert spill.links.get().establishment == town.own_fse
    cost = client.post(reverse("spills:cost", args=[spill.pk]), {
        "kind": "contractor", "amount": "900", "debtor": "fse", "debtor_name": "Blue Plate Diner",
        "establishment": town.own_fse.pk, "invoiced_on": "2026-06-04",
    })  # fmt: skip
    assert cost.status_code == 302 and SpillCost.objects.get().due_on == dt.date(2026, 7, 20)
    bad = client.post(reverse("spills:new"), {"address": "x", "started_at": "soon"})
    assert bad.status_code == 400 and 'id="id_started_at_error"' in bad.content.decode()


@pytest.mark.provision("J2")
def test_j1_j2_the_fse_reports_in_the_portal_sees_the_due_date_and_sends_the_written_report(town):
    client = _as(Role.FSE, town)
    form = client.get(reverse("spills:report_new")).content.decode()
    assert "5 working days" in form
    answer = client.post(reverse("spills:report_new"), {
        "establishment": town.own_fse.pk, "occurred_at": "2026-06-03T10:00", "location": "Yard", "what": "Grease bin spilled",
    }, follow=True)  # fmt: skip
    report = SpillReport.objects.get()
    page = answer.content.decode()
    assert "Wednesday, June 10, 2026" in page  # Jun 4, 5, 8, 9, 10: five working days
    assert "does not relieve" in page
    sent = client.post(reverse("spills:report_written", args=[report.pk]), {
        "incident_on": "2026-06-03", "cause": "Lid broke", "steps_taken": "Absorbent", "prevention": "New bin",
    }, follow=True)  # fmt: skip
    assert "copy of record" in sent.content.decode() and hasattr(SpillReport.objects.get(), "written")


@pytest.mark.provision("J2")
def test_j2_an_overdue_written_report_is_flagged_on_the_list_and_the_notice(town):
    from fogcontrol.spills.tests.helpers import notice

    late = notice(town, day=timezone.localdate() - dt.timedelta(days=20))
    client = _as(Role.FSE, town)
    assert "overdue" in client.get(reverse("spills:reports")).content.decode()
    assert (
        "written report overdue"
        in client.get(reverse("spills:report_detail", args=[late.pk])).content.decode()
    )


def test_i1_an_address_match_is_offered_and_confirmed_by_staff(town):
    from fogcontrol.spills.tests.helpers import fog_spill

    town.own_fse.site_address = "100 MAIN ST"
    town.own_fse.save()
    spill = fog_spill(town, address="100 Main Street")
    client = _as(Role.INSPECTOR, town)
    page = client.get(reverse("spills:detail", args=[spill.pk])).content.decode()
    assert "100% alike" in page and "Confirm this match" in page
    assert not spill.links.exists()
    client.post(
        reverse("spills:link", args=[spill.pk]),
        {"establishment": town.own_fse.pk, "reason": "Address match confirmed"},
    )
    assert spill.links.get().establishment == town.own_fse
