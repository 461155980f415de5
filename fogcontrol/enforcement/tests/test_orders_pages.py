"""The later steps' pages show what the rules give before anything is saved (the L2 window, the P7
cap), refuse what the rules refuse naming the provision, and are linked from the case page."""

import datetime as dt
import html

import pytest

from fogcontrol.core.roles import Role
from fogcontrol.enforcement.tests.helpers_orders import a_case_of_kind, a_permit, ago
from fogcontrol.program.selectors import ruleset_on, town_calendar
from fogcontrol.rules.deadlines import revocation_hearing_window
from fogcontrol.rules.explain import fmt_date

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return " ".join(html.unescape(response.content.decode()).split())


@pytest.mark.provision("L2")
def test_l2_the_suspension_page_shows_the_window_and_refuses_a_date_outside_it(town, client):
    case = a_case_of_kind(town)
    a_permit(town)
    client.force_login(town.users[Role.FOG_MANAGER])
    mailed = ago(3)
    window = revocation_hearing_window(mailed, ruleset=ruleset_on(mailed), calendar=town_calendar())
    url = f"/enforcement/cases/{case.pk}/suspension-notice/"
    assert client.get(url).status_code == 200
    form = {"kind": "suspension", "grounds": ["violation"], "facts": "Two SSOs.", "mailed_on": mailed,
            "article_number": "9407 5", "hearing_place": "Council Chamber"}  # fmt: skip
    preview = client.post(url, {**form, "preview": "1"})
    assert preview.status_code == 200
    assert f"L2: hearing from {fmt_date(window.earliest_business_day)} to {fmt_date(window.latest)}" in text(
        preview
    )
    refused = client.post(url, {**form, "hearing_on": window.latest + dt.timedelta(days=1)})
    assert refused.status_code == 400 and "L2: the hearing must be set between" in text(refused)
    done = client.post(
        f"/enforcement/cases/{case.pk}/later/suspension-notice/", {**form, "hearing_on": window.latest}
    )
    assert done.status_code == 302
    page = text(client.get(f"/enforcement/cases/{case.pk}/"))
    assert "Suspension or revocation (L2-L4) hearing" in page and "Penalty order" in page


@pytest.mark.provision("P7")
def test_p7_the_penalty_page_shows_the_cap_before_the_order_is_issued(town, client):
    case = a_case_of_kind(town)
    client.force_login(town.users[Role.HEARING_OFFICER])
    url = f"/enforcement/cases/{case.pk}/later/penalty-order/"
    preview = client.post(url, {"violation_kind": "sso", "occurrences": 2, "under_order": "on", "issued_on": ago(1),
                                "preview": "1"})  # fmt: skip
    assert preview.status_code == 200 and "P7: cap $20,000.00" in text(preview) and "P7(5)" in text(preview)


def test_the_fse_may_not_open_the_steps_of_its_own_case(town, client):
    case = a_case_of_kind(town)
    client.force_login(town.users[Role.FSE])
    assert client.get(f"/enforcement/cases/{case.pk}/later/complaint/").status_code == 403
