"""The certified and registered mail run (issue #17): letters waiting to be mailed listed, printed as
one PDF (each letter starting on a new page) and their mail log (article number, mailing date)
recorded as their service, all or nothing."""

import datetime as dt
import html
import io

import pytest
from pypdf import PdfReader

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.notices.models import DocumentService, PrintBatch
from fogcontrol.notices.pdf import document_pdf
from fogcontrol.notices.selectors import current_service, documents_to_mail
from fogcontrol.notices.tasks import render_print_batch
from fogcontrol.notices.tests.helpers import issue_letter
from fogcontrol.testing.queries import assert_queries_do_not_grow

pytestmark = pytest.mark.django_db


def waiting(town, n=1, method="certified_mail"):
    return [issue_letter(town, method=method, article_number=f"9407 0000 {i:04d}") for i in range(n)]


def pages(data: bytes) -> int:
    return len(PdfReader(io.BytesIO(data)).pages)


def text(response) -> str:
    return html.unescape(response.content.decode())


def test_only_letters_by_tracked_mail_not_yet_mailed_wait(town, manager, today):
    certified, registered = waiting(town)[0], waiting(town, method="registered_mail")[0]
    issue_letter(town, method="first_class_mail")
    issue_letter(town, method="certified_mail", article_number="9407 9", served_on=today)
    assert list(documents_to_mail(manager)) == [certified, registered]
    assert list(documents_to_mail(town.users[Role.FSE])) == []


def test_the_batch_is_one_pdf_with_every_letter_on_its_own_pages(
    town, client, manager, django_capture_on_commit_callbacks
):
    letters = waiting(town, 3)
    client.force_login(manager)
    page = text(client.get("/notices/mail-run/"))
    assert all(letter.reference in page for letter in letters) and "Print the ticked letters" in page
    chosen = [letters[0].pk, letters[2].pk]
    with django_capture_on_commit_callbacks(execute=True):
        queued = client.post("/notices/mail-run/batches/", {"document": chosen})
    assert queued.status_code == 302
    batch_page = text(client.get(queued["Location"]))
    assert "Ready:" in batch_page and "2 of 2 letters" in batch_page and "Download the PDF" in batch_page
    answer = client.get(f"{queued['Location']}pdf/")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    data = b"".join(answer.streaming_content)
    assert pages(data) == pages(document_pdf(letters[0])) + pages(document_pdf(letters[2]))
    reader = PdfReader(io.BytesIO(data))
    first_pages = [page.extract_text() for page in reader.pages]
    assert letters[0].reference in first_pages[0] and letters[2].reference in first_pages[-1]
    none = client.post("/notices/mail-run/batches/")
    assert none.status_code == 400 and "Choose the letters" in text(none)


def test_the_batch_page_follows_the_workers_progress_then_offers_the_download(town, client, manager):
    """The batch is rendered by the worker: until it runs the page says so and polls itself; while
    it renders, "Rendering 37 of 120"; the PDF is not offered before it is ready."""
    letter = waiting(town)[0]
    client.force_login(manager)
    queued = client.post("/notices/mail-run/batches/", {"document": [letter.pk]})  # worker not run
    batch = PrintBatch.objects.get()
    page = text(client.get(queued["Location"]))
    assert "Queued:" in page and "0 of 1" in page and 'hx-trigger="every 2s"' in page
    assert client.get(f"{queued['Location']}pdf/").status_code == 404
    PrintBatch.objects.filter(pk=batch.pk).update(status="rendering", rendered=37, total=120)
    partial = text(client.get(queued["Location"], headers={"HX-Request": "true"}))
    assert "Rendering 37 of 120" in partial and "<html" not in partial and "every 2s" in partial
    assert f"Print batch {batch.pk}</a>: 120 letters" in text(client.get("/notices/mail-run/"))
    render_print_batch.enqueue(batch_id=batch.pk)
    done = text(client.get(queued["Location"], headers={"HX-Request": "true"}))
    assert "Download the PDF" in done and "every 2s" not in done
    for outsider in (Role.FSE, Role.HAULER):
        client.force_login(town.users[outsider])
        assert client.get(queued["Location"]).status_code == 404
        assert client.get(f"{queued['Location']}pdf/").status_code == 404


def test_the_mail_log_records_each_letters_service_all_or_nothing(town, client, manager, today):
    first, second = waiting(town, 2)
    client.force_login(manager)
    bad = client.post("/notices/mail-run/log/", {
        f"article_{first.pk}": "9407 1111", f"mailed_{first.pk}": today.isoformat(),
        f"article_{second.pk}": "", f"mailed_{second.pk}": today.isoformat(),
    })  # fmt: skip
    assert bad.status_code == 400 and second.reference in text(bad) and "article number" in text(bad)
    assert DocumentService.objects.filter(served_on__isnull=False).count() == 0
    late = client.post(
        "/notices/mail-run/log/", {f"mailed_{first.pk}": (today + dt.timedelta(days=1)).isoformat()}
    )
    assert late.status_code == 400 and "after today" in text(late)
    empty = client.post("/notices/mail-run/log/", {})
    assert empty.status_code == 400 and "at least one letter" in text(empty)
    done = client.post("/notices/mail-run/log/", {
        f"article_{first.pk}": "9407 1111 2222", f"mailed_{first.pk}": today.isoformat(),
    }, follow=True)  # fmt: skip
    assert "Mail log recorded for 1 letter" in text(done)
    service = current_service(first)
    assert (service.method, service.served_on, service.article_number) == (
        "certified_mail",
        today,
        "9407 1111 2222",
    )
    assert list(documents_to_mail(manager)) == [second]


def test_read_only_staff_see_the_run_but_record_nothing(town, client, today):
    letter = waiting(town)[0]
    client.force_login(town.users[Role.STAFF_READONLY])
    page = text(client.get("/notices/mail-run/"))
    assert letter.reference in page and "Record the mail log" not in page
    refused = client.post("/notices/mail-run/log/", {f"mailed_{letter.pk}": today.isoformat()})
    assert refused.status_code == 403


def test_the_mail_run_takes_the_same_exact_queries_for_few_letters_and_many(town, client, manager):
    client.force_login(manager)
    # session, user, Town profile twice (today, the menu), the letters waiting with their latest service,
    # the latest print batches.
    assert_queries_do_not_grow(client, lambda n: waiting(town, n), {"/notices/mail-run/": 6}, grows=False)


def test_the_api_lists_prints_and_logs_the_mail_run(town, manager, today):
    first, second = waiting(town, 2, method="registered_mail")
    client = api_as(manager)
    listed = client.get("/api/v1/notices/mail-run/")
    assert [row["id"] for row in listed.json()] == [first.pk, second.pk]
    assert (
        listed.json()[0]["method"] == "registered_mail"
        and listed.json()[0]["article_number"] == "9407 0000 0000"
    )
    batch = client.post(
        "/api/v1/notices/mail-run/batch/", {"documents": [first.pk, second.pk]}, format="json"
    )
    assert batch.status_code == 202 and batch.json()["progress"] == "queued 0 of 2"
    assert batch.json()["download"] is None
    render_print_batch.enqueue(batch_id=batch.json()["id"])  # what the worker does
    state = client.get(f"/api/v1/notices/print-batches/{batch.json()['id']}/").json()
    assert state["status"] == "done" and state["progress"] == "ready: 2 of 2"
    pdf = client.get(state["download"])
    assert pages(b"".join(pdf.streaming_content)) == 2 * pages(document_pdf(first))
    assert client.post("/api/v1/notices/mail-run/batch/", {"documents": []}, format="json").status_code == 400
    assert api_as(town.users[Role.FSE]).get(state["download"]).status_code == 404
    late = client.post("/api/v1/notices/mail-run/log/", {"rows": [
        {"document": first.pk, "mailed_on": today.isoformat()},
        {"document": second.pk, "mailed_on": (today + dt.timedelta(days=2)).isoformat()},
    ]}, format="json")  # fmt: skip
    assert late.status_code == 400 and "rows" in late.json() and current_service(first).served_on is None
    logged = client.post("/api/v1/notices/mail-run/log/", {"rows": [
        {"document": first.pk, "mailed_on": today.isoformat(), "article_number": "RR 1"},
    ]}, format="json")  # fmt: skip
    assert logged.status_code == 201 and logged.json()[0]["article_number"] == "RR 1"
    assert [row["id"] for row in client.get("/api/v1/notices/mail-run/").json()] == [second.pk]
    assert api_as(town.users[Role.FSE]).get("/api/v1/notices/mail-run/").status_code == 404
