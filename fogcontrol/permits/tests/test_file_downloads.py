"""Issue 15, finding 5: application documents and remodel plans go out only to who may see them.

Each download is an attachment with a safe name and nosniff; the stored name is random.
"""

import datetime as dt

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from fogcontrol.core.roles import Role
from fogcontrol.permits import services
from fogcontrol.program.selectors import town_today
from fogcontrol.testing import factories

PDF = b"%PDF-1.4\n%%EOF\n"


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def stranger(town):
    """An FSE user of another establishment."""
    user = factories.UserFactory(username="golden-wok", role=Role.FSE)
    town.other_fse.users.add(user)
    return user


def _document(draft, fse_user, name="plans.pdf"):
    return services.application_add_document(
        application=draft, acting_user=fse_user, uploaded_file=SimpleUploadedFile(name, PDF), kind="plans"
    )


def test_the_owner_downloads_an_application_document_as_an_attachment(draft, fse_user):
    document = _document(draft, fse_user, name='my "plans";.pdf')
    page = _client(fse_user).get(f"/permits/applications/{draft.pk}/").content.decode()
    url = f"/permits/applications/{draft.pk}/documents/{document.pk}/"
    assert f'href="{url}"' in page
    response = _client(fse_user).get(url)
    assert response.status_code == 200
    assert b"".join(response.streaming_content) == PDF
    assert response["Content-Disposition"].startswith("attachment;")
    assert '"my _plans_.pdf"' in response["Content-Disposition"]
    assert response["X-Content-Type-Options"] == "nosniff"


def test_another_establishments_user_gets_404_for_a_document(draft, fse_user, stranger):
    document = _document(draft, fse_user)
    url = f"/permits/applications/{draft.pk}/documents/{document.pk}/"
    assert _client(stranger).get(url).status_code == 404
    assert Client().get(url).status_code == 302  # anonymous: to the login page


def test_two_uploads_of_the_same_name_are_stored_under_different_random_names(draft, fse_user):
    first, second = _document(draft, fse_user), _document(draft, fse_user)
    assert first.file.name != second.file.name
    for document in (first, second):
        assert "plans" not in document.file.name.rsplit("/", 1)[-1]
        assert document.file.name.startswith("permits/applications/") and document.file.name.endswith(".pdf")


def test_remodel_plans_go_to_the_establishment_and_staff_only(town, fse_user, stranger, fees):
    notice = services.remodel_notice_file(
        acting_user=fse_user, establishment=town.own_fse, kind="remodel",
        description="New cook line", planned_start=town_today() + dt.timedelta(days=90),
    )  # fmt: skip
    notice = services.remodel_plans_submit(
        notice=notice, acting_user=fse_user, plans=SimpleUploadedFile("plans.pdf", PDF)
    )
    url = f"/permits/remodel/{notice.pk}/plans/"
    assert f'href="{url}"' in _client(fse_user).get(f"/permits/remodel/{notice.pk}/").content.decode()
    response = _client(town.users[Role.INSPECTOR]).get(url)
    assert response.status_code == 200 and response["Content-Disposition"].startswith("attachment;")
    assert _client(stranger).get(url).status_code == 404
