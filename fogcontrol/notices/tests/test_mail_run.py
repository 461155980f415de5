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
from fogcontrol.notices.models import DocumentService
from fogcontrol.notices.pdf import document_pdf
from fogcontrol.notices.selectors import current_service, documents_to_mail
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


def test_the_batch_is_one_pdf_with_every_letter_on_its_own_pages(town, client, manager):
    letters = waiting(town, 3)
    client.force_login(manager)
    page = text(client.get("/notices/mail-run/"))
    assert all(letter.reference in page for letter in letters) and "Print the ticked letters" in page
    chosen = [letters[0].pk, letters[2].pk]
    answer = client.get("/notices/mail-run/batch.pdf", {"document": chosen})
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    assert pages(answer.content) == pages(document_pdf(letters[0])) + pages(document_pdf(letters[2]))
    reader = PdfReader(io.BytesIO(answer.content))
    first_pages = [page.extract_text() for page in reader.pages]
    assert letters[0].reference in first_pages[0] and letters[2].reference in first_pages[-1]
    none = client.get("/notices/mail-run/batch.pdf")
    assert none.status_code == 400 and "Choose the letters" in none.content.decode()


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
    # session, user, Town profile twice (today, the menu), the letters waiting with their latest service.
    assert_queries_do_not_grow(client, lambda n: waiting(town, n), {"/notices/mail-run/": 5}, grows=False)


def test_the_api_lists_prints_and_logs_the_mail_run(town, manager, today):
    first, second = waiting(town, 2, method="registered_mail")
    client = api_as(manager)
    listed = client.get("/api/v1/notices/mail-run/")
    assert [row["id"] for row in listed.json()] == [first.pk, second.pk]
    assert (
        listed.json()[0]["method"] == "registered_mail"
        and listed.json()[0]["article_number"] == "9407 0000 0000"
    )
    batch = client.get("/api/v1/notices/mail-run/batch/", {"document": [first.pk, second.pk]})
    assert batch.status_code == 200 and pages(batch.content) == 2 * pages(document_pdf(first))
    assert client.get("/api/v1/notices/mail-run/batch/").status_code == 400
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
