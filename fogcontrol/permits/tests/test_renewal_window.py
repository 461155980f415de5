"""B6: "Renew this permit" is offered, and taken, only inside the renewal window (issue 18: it was
offered on a permit issued a minute earlier)."""

import datetime as dt

import pytest
from django.test import Client
from rest_framework.test import APIClient

from fogcontrol.permits import services
from fogcontrol.permits.models import PermitApplication
from fogcontrol.permits.states import TransitionNotAllowed
from fogcontrol.program.selectors import ruleset_on, town_today
from fogcontrol.rules.explain import fmt_date


def page(user, url):
    client = Client()
    client.force_login(user)
    return client.get(url).content.decode()


@pytest.mark.provision("B6")
def test_b6_a_permit_just_issued_offers_no_renewal_and_says_when_it_opens(issued, fse_user):
    window = ruleset_on(town_today()).permit_renewal_window_days
    opens = issued.valid_until - dt.timedelta(days=window)
    html = page(fse_user, f"/permits/{issued.pk}/")
    assert f'action="/permits/{issued.pk}/renew/"' not in html
    with pytest.raises(TransitionNotAllowed) as refused:
        services.renewal_application_start(permit=issued, acting_user=fse_user)
    assert f"its renewal opens on {fmt_date(opens)}" in str(refused.value)
    assert "B6" in str(refused.value)
    assert not PermitApplication.objects.filter(kind="renewal").exists()


@pytest.mark.provision("B6")
def test_b6_the_api_refuses_a_renewal_before_the_window_with_409_and_the_reason(issued, fse_user):
    api = APIClient()
    api.force_authenticate(fse_user)
    response = api.post(f"/api/v1/permits/{issued.pk}/renew/")
    assert response.status_code == 409
    assert "renewal opens on" in str(response.json())


@pytest.mark.provision("B6")
def test_b6_inside_the_window_the_renewal_is_offered_and_taken(renewal_due, fse_user):
    html = page(fse_user, f"/permits/{renewal_due.pk}/")
    assert f'action="/permits/{renewal_due.pk}/renew/"' in html
    application = services.renewal_application_start(permit=renewal_due, acting_user=fse_user)
    assert application.kind == "renewal"
