"""Staff submitting an application for an FSE sign on its behalf, so they must have authenticated
within the last few minutes (fogcontrol/core/fresh_auth.py); the FSE submitting its own is not asked."""

import pytest
from django.test import Client

from conftest import api_as, api_signed_in
from fogcontrol.permits.models import ApplicationStatus
from fogcontrol.permits.tests.conftest import B3_ANSWERS
from fogcontrol.testing.auth import authenticated_minutes_ago

PASSWORD = "correct horse battery"  # fogcontrol.testing.factories.UserFactory


def _signed_in(user, *, minutes_ago: float) -> Client:
    client = Client()
    client.force_login(user)
    authenticated_minutes_ago(client, minutes_ago)
    return client


@pytest.mark.provision("B3")
def test_b3_staff_submitting_for_an_fse_after_the_window_confirm_then_submit(draft, manager):
    client = _signed_in(manager, minutes_ago=6)
    detail = f"/permits/applications/{draft.pk}/"

    asked = client.post(f"{detail}submit/")

    assert asked["Location"] == f"/account/confirm/?next=%2Fpermits%2Fapplications%2F{draft.pk}%2F"
    draft.refresh_from_db()
    assert draft.status == ApplicationStatus.DRAFT
    assert client.post("/account/confirm/", {"password": PASSWORD, "next": detail})["Location"] == detail
    assert client.post(f"{detail}submit/").status_code == 302
    draft.refresh_from_db()
    assert draft.status == ApplicationStatus.SUBMITTED and draft.submitted_by == manager


@pytest.mark.provision("B3")
def test_b3_the_edit_page_keeps_the_draft_as_typed_across_the_confirmation(town, draft, manager):
    client = _signed_in(manager, minutes_ago=6)
    edit = f"/permits/applications/{draft.pk}/edit/"
    form = {f"app-{key}": value for key, value in B3_ANSWERS.items()}
    form |= {"app-meals_per_day": "412", "fixtures-TOTAL_FORMS": "0", "fixtures-INITIAL_FORMS": "0",
             "fixtures-MIN_NUM_FORMS": "0", "fixtures-MAX_NUM_FORMS": "1000", "submit": "1"}  # fmt: skip

    asked = client.post(edit, form)

    assert asked["Location"].startswith("/account/confirm/")
    client.post("/account/confirm/", {"password": PASSWORD, "next": edit})
    page = client.get(edit).content.decode()
    assert 'value="412"' in page and "Your draft is as you left it" in page


@pytest.mark.provision("B3")
def test_b3_the_fse_submitting_its_own_application_is_not_asked(draft, fse_user):
    client = _signed_in(fse_user, minutes_ago=60)
    assert client.post(f"/permits/applications/{draft.pk}/submit/").status_code == 302
    draft.refresh_from_db()
    assert draft.status == ApplicationStatus.SUBMITTED


@pytest.mark.provision("B3")
def test_b3_the_api_answers_403_fresh_authentication_required(draft, manager, fse_user):
    client = api_signed_in(manager)
    authenticated_minutes_ago(client, 6)

    response = client.post(f"/api/v1/permit-applications/{draft.pk}/submit/")

    assert response.status_code == 403
    assert response.json()["detail"].startswith("fresh authentication required")
    assert (
        api_as(manager).post(f"/api/v1/permit-applications/{draft.pk}/submit/").status_code == 403
    )  # a token, no session
    assert api_signed_in(manager).post(f"/api/v1/permit-applications/{draft.pk}/submit/").status_code == 200
