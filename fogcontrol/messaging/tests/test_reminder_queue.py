"""The work queue "Reminders to send" (issue #17): the reminders due today and not sent, sent many at
once by the FOG Manager, each once: a reminder sent from the queue is not sent again by the nightly
sweep, and one the sweep sent is reported as already sent; the page, its export, and the API."""

import datetime as dt

import pytest
from django.core import mail

from conftest import api_as
from fogcontrol.audit.models import AuditEntry
from fogcontrol.billing.tests.helpers import invoice
from fogcontrol.core.roles import Role
from fogcontrol.messaging.models import Message
from fogcontrol.messaging.services import reminders_pending, reminders_send_due, reminders_send_selected
from fogcontrol.messaging.tests.helpers import service_due
from fogcontrol.program.selectors import town_today
from fogcontrol.testing import factories
from fogcontrol.testing.queries import assert_queries_do_not_grow

pytestmark = pytest.mark.django_db
URL = "/messaging/reminders/"
API = "/api/v1/queues/reminders/"
SEND = "/api/v1/queues/reminders/send/"


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    """Run the sending task queued on commit at once (tests run tasks eagerly)."""

    def run(fn, *args, **kwargs):
        with django_capture_on_commit_callbacks(execute=True):
            return fn(*args, **kwargs)

    return run


def _keys(page) -> list[str]:
    return [r.key for r in page.context["page"].object_list]


@pytest.mark.provision("E1")
def test_the_manager_sends_some_and_the_sweep_does_not_send_them_again(client, town, on_commit):
    service_due(town.own_device, 3)  # due soon: the FSE, the owner and the hauler
    service_due(town.other_device, -2)  # overdue
    client.force_login(town.users[Role.FOG_MANAGER])
    page = client.get(URL)
    body = page.content.decode()
    pending = page.context["page"].object_list
    assert page.status_code == 200 and len(pending) >= 2
    assert "Device service overdue (E1)" in body and town.own_device.identifier in body
    assert pending[0].overdue  # most urgent first
    assert 'name="reminder"' in body and 'aria-label="Select: ' in body and 'id="id_select_all"' in body
    chosen = [r.key for r in pending if r.draft.subject.pk == town.own_device.pk]
    confirm = client.post(URL, {"reminder": chosen})
    assert f"Confirm: send {len(chosen)} reminder" in confirm.content.decode()
    assert not Message.objects.exists()
    result = on_commit(client.post, URL, {"reminder": chosen, "confirmed": "yes"})
    assert f"{len(chosen)} sent" in result.content.decode()
    sent = Message.objects.filter(dedupe_key__in=chosen)
    assert sent.count() == len(chosen) and all(m.status == "sent" for m in sent)
    assert len(mail.outbox) == len(chosen)
    assert AuditEntry.objects.filter(action="message.queue").count() == len(chosen)
    # The queue no longer lists them; the sweep sends only the others, and nothing twice.
    assert not set(chosen) & set(_keys(client.get(URL)))
    counts = on_commit(reminders_send_due, on=town_today(), acting_user="nightly-sweep")
    assert counts["service_due"] == 0 and counts["service_overdue"] > 0
    assert Message.objects.filter(dedupe_key__in=chosen).count() == len(chosen)
    assert reminders_pending(on=town_today()) == []


def test_a_reminder_the_sweep_sent_meanwhile_is_reported_not_sent_twice(client, town, on_commit):
    service_due(town.own_device, 3)
    client.force_login(town.users[Role.FOG_MANAGER])
    keys = _keys(client.get(URL))
    on_commit(reminders_send_due, on=town_today(), acting_user="nightly-sweep")  # the sweep, meanwhile
    written = Message.objects.count()
    page = client.post(URL, {"reminder": keys, "confirmed": "yes"})
    text = page.content.decode()
    assert "0 sent" in text and f"{len(keys)} already sent" in text and "not sent again" in text
    assert Message.objects.count() == written


def test_select_all_matching_a_filter(client, town, on_commit):
    service_due(town.own_device, 3)
    invoice(town, "80.00")
    client.force_login(town.users[Role.FOG_MANAGER])
    filtered = client.get(URL, {"kind": "invoice_issued"})
    assert {r.kind for r in filtered.context["page"].object_list} == {"invoice_issued"}
    confirm = client.post(URL, {"select_all": "on", "kind": "invoice_issued"})
    count = filtered.context["page"].paginator.count
    assert f"Confirm: send {count} reminder" in confirm.content.decode()
    on_commit(client.post, URL, {"select_all": "on", "kind": "invoice_issued", "confirmed": "yes"})
    assert set(Message.objects.values_list("kind", flat=True)) == {"invoice_issued"}
    assert {r.kind for r in client.get(URL).context["page"].object_list} == {"service_due"}


def test_the_page_says_what_is_wrong(client, town):
    service_due(town.own_device, 3)
    client.force_login(town.users[Role.FOG_MANAGER])
    nothing = client.post(URL, {"confirmed": "yes"})
    assert nothing.status_code == 400 and "No reminder is selected" in nothing.content.decode()
    bad = client.post(URL, {"reminder": ["<script>"], "confirmed": "yes"})
    assert bad.status_code == 400 and "is not a reminder&#x27;s key" in bad.content.decode()
    gone = client.post(URL, {"reminder": ["0" * 64], "confirmed": "yes"})
    assert gone.status_code == 200 and "no longer due" in gone.content.decode()
    assert not Message.objects.exists()


def test_who_sees_and_who_sends(client, town):
    service_due(town.own_device, 3)
    client.force_login(town.users[Role.INSPECTOR])
    page = client.get(URL)
    assert (
        page.status_code == 200
        and page.context["page"].paginator.count
        and 'name="reminder"' not in page.content.decode()
    )
    assert client.post(URL, {"select_all": "on", "confirmed": "yes"}).status_code == 403
    assert (
        api_as(town.users[Role.INSPECTOR]).post(SEND, {"all_matching": True}, format="json").status_code
        == 403
    )
    client.force_login(town.users[Role.FSE])
    assert client.get(URL).status_code == 404
    assert api_as(town.users[Role.FSE]).get(API).status_code == 404
    assert api_as(town.users[Role.FSE]).post(SEND, {"all_matching": True}, format="json").status_code == 404
    assert not Message.objects.exists()


def test_the_export_holds_the_filtered_reminders(client, town):
    service_due(town.own_device, 3)
    invoice(town, "80.00")
    client.force_login(town.users[Role.FOG_MANAGER])
    count = client.get(URL, {"kind": "invoice_issued"}).context["page"].paginator.count
    response = client.get(URL, {"kind": "invoice_issued", "format": "csv"})
    lines = b"".join(response.streaming_content).decode().strip().splitlines()
    assert lines[0].startswith("Reminder,Establishment,About,Due") and len(lines) == count + 1
    assert all("Invoice issued" in line for line in lines[1:])


@pytest.mark.provision("Q1")
def test_the_api_lists_and_sends_with_an_outcome_per_reminder(town, on_commit):
    service_due(town.own_device, 3)
    invoice(town, "80.00")
    api = api_as(town.users[Role.BILLING_CLERK])
    listed = api.get(API, {"kind": "invoice_issued"}).json()
    keys = [row["key"] for row in listed["results"]]
    assert listed["count"] == len(keys) > 0 and listed["results"][0]["about"].startswith("Invoice ")
    dry = api.post(SEND, {"all_matching": True, "kind": "invoice_issued", "dry_run": True}, format="json")
    assert dry.json()["matched"] == len(keys) and not Message.objects.exists()
    answer = on_commit(api.post, SEND, {"keys": [keys[0], keys[0], "f" * 64]}, format="json").json()
    assert answer["matched"] == 2 and answer["sent"] == 1 and answer["not_due"] == 1
    first, unknown = answer["items"]
    assert first["outcome"] == "sent" and Message.objects.get(pk=first["message"]).dedupe_key == keys[0]
    assert unknown == {"key": "f" * 64, "outcome": "not_due", "reason": unknown["reason"], "message": None}
    again = api.post(SEND, {"keys": keys}, format="json").json()
    assert again["sent"] == len(keys) - 1 and again["already_sent"] == 1
    assert again["items"][0]["message"] == first["message"]
    bad = api.post(SEND, {"keys": ["nope"]}, format="json")
    assert bad.status_code == 400 and "keys" in bad.json()
    assert api.post(SEND, {}, format="json").status_code == 400


def test_the_service_refuses_other_roles_and_too_many(town):
    with pytest.raises(Exception, match="Only the FOG Manager and the Billing Clerk"):
        reminders_send_selected(acting_user=town.users[Role.INSPECTOR], keys=["a" * 64], on=town_today())
    with pytest.raises(Exception, match="At most"):
        reminders_send_selected(
            acting_user=town.users[Role.FOG_MANAGER], keys=[f"{n:064x}" for n in range(1001)], on=town_today()
        )


def test_the_queue_takes_the_same_queries_at_two_sizes(client, town):
    """Page and API: the sweep's own selection (a fixed number of queries per kind), the keys sent
    before, never a query per reminder or per establishment."""

    def add(count):
        for n in range(count):
            fse = factories.EstablishmentFactory()
            device = factories.DeviceFactory(establishments=[fse], parcel=fse.parcel)
            service_due(device, -1 if n % 2 else 4)
            invoice(town, "50.00")

    client.force_login(town.users[Role.FOG_MANAGER])
    assert_queries_do_not_grow(client, add, {URL: PAGE_QUERIES, API: API_QUERIES})
    # Some sent already: still the same.
    reminders_send_selected(
        acting_user=town.users[Role.FOG_MANAGER], keys=[r.key for r in reminders_pending(on=town_today())[:3]],
        on=town_today(),
    )  # fmt: skip
    assert client.get(URL).context["page"].paginator.count > 0


# The session, the user and the Town (twice: the middleware, then the sweep's values), the ruleset
# and the calendar; one query per kind of reminder (service: the states and their FSEs; renewals;
# training; reports; invoices; hearings); the recipients of the FSEs of each kind's page that has
# any (here the service's and the invoices': the FSEs with their contacts, then 4 prefetches; the
# selection is read a page of a kind at a time, issue 16); the keys sent before. The page adds the
# ruleset of the template context.
PAGE_QUERIES = 24
API_QUERIES = 23


def test_a_day_later_a_new_due_date_is_a_new_reminder(town):
    state = service_due(town.own_device, 3)
    keys = [r.key for r in reminders_pending(on=town_today())]
    reminders_send_selected(acting_user=town.users[Role.FOG_MANAGER], keys=keys, on=town_today())
    assert reminders_pending(on=town_today()) == []
    state.next_due = town_today() + dt.timedelta(days=5)
    state.save()
    assert {r.key for r in reminders_pending(on=town_today())}.isdisjoint(keys)
