"""What staff do on the pages: write a letter, record its service, draft and edit a template version
with a live preview; an FSE user reads the documents served on it."""

import datetime as dt

import pytest

from fogcontrol.core.roles import Role
from fogcontrol.notices.models import DocumentTemplate, IssuedDocument
from fogcontrol.notices.tests.conftest import adopted_version
from fogcontrol.notices.tests.helpers import issue_letter

pytestmark = pytest.mark.django_db


def test_staff_write_a_letter_to_an_fse_and_record_its_service(client, town, manager, today):
    client.force_login(manager)
    page = client.get(f"/notices/documents/new/?establishment={town.own_fse.pk}")
    assert page.status_code == 200 and "Blue Plate Diner" in page.context["form"].initial["addressee"]
    refused = client.post("/notices/documents/new/", {
        "establishment": town.own_fse.pk, "addressee": "Blue Plate Diner", "body_text": "Hello.",
        "service_method": "certified_mail", "served_on": "",
    })  # fmt: skip
    assert refused.status_code == 400 and "article number" in refused.content.decode()
    answer = client.post("/notices/documents/new/", {
        "establishment": town.own_fse.pk, "addressee": "Blue Plate Diner\n12 Main St", "body_text": "Please call.",
        "service_method": "certified_mail", "article_number": "9407-55", "served_on": "",
    })  # fmt: skip
    document = IssuedDocument.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/notices/documents/{document.pk}/"
    shown = client.get(answer["Location"]).content.decode()
    assert "Please call." in shown and "Not yet served" in shown and "9407-55" in shown
    pdf = client.get(f"/notices/documents/{document.pk}/pdf/")
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    served = client.post(f"/notices/documents/{document.pk}/service/", {
        "service_method": "certified_mail", "served_on": today.isoformat(), "article_number": "9407-55",
    })  # fmt: skip
    assert served.status_code == 302
    assert "Served" in client.get(f"/notices/documents/{document.pk}/").content.decode()
    listed = client.get(f"/notices/documents/?establishment={town.own_fse.pk}&served=true").content.decode()
    assert document.reference in listed and "Write a letter to Blue Plate Diner" in listed


def test_a_service_date_in_the_future_is_refused_beside_the_field(client, town, manager, today):
    client.force_login(manager)
    document = issue_letter(town)
    answer = client.post(f"/notices/documents/{document.pk}/service/", {
        "service_method": "email", "served_on": (today + dt.timedelta(days=2)).isoformat(),
    })  # fmt: skip
    assert answer.status_code == 400 and answer.context["form"].errors["served_on"]


def test_the_fse_reads_the_documents_served_on_it_and_nothing_else(client, town, today):
    served = issue_letter(town, served_on=today)
    unserved = issue_letter(town)
    client.force_login(town.users[Role.FSE])
    listed = client.get("/notices/documents/").content.decode()
    assert served.reference in listed and unserved.reference not in listed
    assert client.get(f"/notices/documents/{unserved.pk}/").status_code == 404
    detail = client.get(f"/notices/documents/{served.pk}/").content.decode()
    assert "Please call us about your permit." in detail and "Record the service" not in detail


def test_drafting_and_editing_a_version_with_a_live_preview(client, town, manager, today):
    client.force_login(manager)
    drafted = client.post("/notices/templates/general_letter/draft/")
    draft = DocumentTemplate.objects.get(key="general_letter", version=2)
    assert drafted["Location"] == f"/notices/versions/{draft.pk}/edit/"
    preview = client.post(f"/notices/versions/{draft.pk}/preview/", {"title": "Hi", "body": "Dear {business_name}"},
                          headers={"HX-Request": "true"})  # fmt: skip
    assert "Dear [business_name]" in preview.content.decode()
    bad = client.post(f"/notices/versions/{draft.pk}/preview/", {"title": "Hi", "body": "Dear {owner_name}"})
    assert "Unknown placeholder(s): {owner_name}" in bad.content.decode()
    tomorrow = (today + dt.timedelta(days=1)).isoformat()
    refused = client.post(f"/notices/versions/{draft.pk}/edit/", {
        "title": "Hi", "body": "Dear {owner_name}", "effective_from": tomorrow, "adopted_by": "Res. 1",
    })  # fmt: skip
    assert "Unknown placeholder(s): {owner_name}" in str(refused.context["form"].errors["body"])
    saved = client.post(f"/notices/versions/{draft.pk}/edit/", {
        "title": "Hi", "body": "Dear {business_name},\n\n{body_text}", "effective_from": tomorrow,
        "adopted_by": "Res. 2026-41",
    })  # fmt: skip
    assert saved.status_code == 302
    draft.refresh_from_db()
    assert draft.adopted_by == "Res. 2026-41" and draft.body.startswith("Dear {business_name}")
    again = client.post("/notices/templates/general_letter/draft/")
    assert again.status_code == 302 and DocumentTemplate.objects.filter(key="general_letter").count() == 2


def test_a_version_in_force_is_read_only(client, town, manager):
    version = adopted_version("general_letter", 1, body="{body_text}", days=3)
    client.force_login(manager)
    assert client.get(f"/notices/versions/{version.pk}/edit/").status_code == 409
    assert "read-only" in client.get(f"/notices/versions/{version.pk}/").content.decode()
    listed = client.get("/notices/templates/").content.decode()
    assert "Version 1 since" in listed


def test_before_any_version_the_pages_show_the_default_wording(client, town, manager):
    client.force_login(manager)
    listed = client.get("/notices/templates/").content.decode()
    assert "Letter from the FOG Control Program" in listed and "The default wording" in listed
    detail = client.get("/notices/templates/general_letter/").content.decode()
    assert "No version yet" in detail and "{business_name}" in detail and "Draft a new version" in detail
    assert client.get("/notices/templates/no_such_document/").status_code == 404


def test_the_text_is_shown_escaped_with_its_paragraphs(client, town, manager):
    document = issue_letter(town, context={"business_name": "Blue Plate Diner",
                                           "body_text": "<script>alert(1)</script>\n\nSecond paragraph."})  # fmt: skip
    client.force_login(manager)
    page = client.get(f"/notices/documents/{document.pk}/").content.decode()
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<p>Second paragraph.</p>" in page
