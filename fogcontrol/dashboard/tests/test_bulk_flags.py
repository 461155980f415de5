"""Many manifest flags reviewed at once (F4): one outcome and one note, a confirmation, select-all on
the filtered set, each flag through the single-flag service (audited), and a summary of what was
done and what was refused, with why; the API's equivalent."""

import pytest

from conftest import api_as
from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.roles import Role
from fogcontrol.dashboard.tests.helpers import open_flags
from fogcontrol.servicing.models import ManifestFlag
from fogcontrol.servicing.services import flag_review

pytestmark = pytest.mark.django_db

URL = "/dashboard/queues/flags/"


def _reviews() -> int:
    return AuditEntry.objects.filter(action="manifest_flag.review").count()


@pytest.mark.provision("F4")
def test_ticked_flags_are_confirmed_then_cleared_with_one_note(client, town):
    first, second, third = open_flags(town, 3)
    client.force_login(town.users[Role.FOG_MANAGER])
    body = {"outcome": "cleared", "note": "Reviewed with the hauler", "flag": [first.pk, second.pk]}
    confirm = client.post(URL, body)
    assert confirm.status_code == 200
    assert "Confirm the review of 2 flags" in confirm.content.decode()
    assert ManifestFlag.objects.filter(review="open").count() == 3  # nothing yet
    done = client.post(URL, {**body, "confirmed": "yes"})
    assert "2 done" in done.content.decode()
    first.refresh_from_db(), third.refresh_from_db()
    assert first.review == "cleared" and first.review_note == "Reviewed with the hauler"
    assert third.review == "open"
    assert _reviews() == 2  # each flag in the history, as if reviewed by hand


def test_select_all_takes_every_flag_matching_the_filters_and_reports_refusals(client, town):
    highs = open_flags(town, 3, code="fill_high")
    baffles = open_flags(town, 2, code="baffles")
    flag_review(flag=highs[0], acting_user=town.users[Role.INSPECTOR], outcome="cleared")
    client.force_login(town.users[Role.FOG_MANAGER])
    # The list filtered to all reviews of one code: the reviewed flag is in it, and is refused.
    body = {"outcome": "cleared", "select_all": "on", "code": "fill_high", "review": "", "confirmed": "yes"}
    page = client.post(URL, {**body, "review": "cleared"})
    assert "1 refused" in page.content.decode() and "already reviewed" in page.content.decode()
    page = client.post(
        URL, {"outcome": "cleared", "select_all": "on", "code": "fill_high", "confirmed": "yes"}
    )
    assert "2 done" in page.content.decode()
    assert all(flag.review == "open" for flag in ManifestFlag.objects.filter(pk__in=[b.pk for b in baffles]))


def test_a_referral_needs_its_reason(client, town):
    (flag,) = open_flags(town, 1)
    client.force_login(town.users[Role.FOG_MANAGER])
    page = client.post(URL, {"outcome": "referred", "note": " ", "flag": [flag.pk]})
    assert page.status_code == 400
    assert "Say why the manifests are referred" in page.content.decode()
    flag.refresh_from_db()
    assert flag.review == "open"


def test_read_only_staff_see_the_queue_but_may_not_review(client, town):
    (flag,) = open_flags(town, 1)
    client.force_login(town.users[Role.STAFF_READONLY])
    page = client.get(URL)
    assert page.status_code == 200 and 'name="flag"' not in page.content.decode()
    assert client.post(URL, {"outcome": "cleared", "flag": [flag.pk], "confirmed": "yes"}).status_code == 403
    assert _reviews() == 0


@pytest.mark.provision("F4")
def test_the_api_reviews_in_bulk_and_counts_on_a_dry_run(town):
    flags = open_flags(town, 3)
    api = api_as(town.users[Role.INSPECTOR])
    dry = api.post(
        "/api/v1/queues/flags/review/",
        {"outcome": "cleared", "all_matching": True, "dry_run": True},
        format="json",
    )
    assert dry.status_code == 200 and dry.json()["matched"] == 3 and _reviews() == 0
    ids = [flag.pk for flag in flags[:2]]
    answer = api.post(
        "/api/v1/queues/flags/review/", {"outcome": "referred", "note": "Repeated", "ids": ids}, format="json"
    )
    assert answer.status_code == 200
    assert sorted(answer.json()["done"]) == sorted(ids) and answer.json()["refused"] == []
    again = api.post("/api/v1/queues/flags/review/", {"outcome": "cleared", "ids": ids}, format="json").json()
    assert again["done"] == [] and len(again["refused"]) == 2
    missing = api.post("/api/v1/queues/flags/review/", {"outcome": "cleared"}, format="json")
    assert missing.status_code == 400 and "ids" in missing.json()
