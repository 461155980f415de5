"""Issuing a document: rendered from the template version in force on the issue date, refused with
the field named when a value is missing, stored as an unalterable copy of record, audited."""

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import DatabaseError, connection, transaction

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.errors import RecordImmutable
from fogcontrol.core.records import verify_chain
from fogcontrol.core.roles import Role
from fogcontrol.notices.models import DocumentService, DocumentTemplate, IssuedDocument
from fogcontrol.notices.services import document_issue, document_record_service
from fogcontrol.notices.tests.conftest import adopted_version, days_ago
from fogcontrol.notices.tests.helpers import issue_letter
from fogcontrol.program.services import town_profile_update

pytestmark = pytest.mark.django_db


def test_a_letter_is_rendered_from_the_default_and_kept_as_issued(town, today):
    document = issue_letter(town, subject=town.own_device)
    assert document.title == "Letter from the FOG Control Program"
    assert document.body.startswith("Dear Blue Plate Diner,\n\nPlease call us about your permit.")
    assert document.issued_on == today and document.template_version == 1
    assert document.template.adopted_by and document.record_hash
    assert document.subject_type.model == "greasecontroldevice" and document.subject_id == town.own_device.pk
    first = DocumentTemplate.objects.get(key="general_letter")
    assert (
        first.version == 1 and first.effective_from == today and first.created_by_label == "notices-install"
    )
    actions = set(AuditEntry.objects.values_list("action", flat=True))
    assert {"document_template.install", "document.issue", "document.service"} <= actions
    assert verify_chain(IssuedDocument).ok


def test_the_letterhead_is_the_town_profile_as_it_stood_on_issue(town, manager):
    town_profile_update(acting_user=manager, name="Town of Los Robles", fog_manager_name="Dana Reyes",
                        fog_manager_address="1 Civic Center Plaza\nLos Robles, CA 94000")  # fmt: skip
    document = issue_letter(town)
    assert document.letterhead.splitlines()[:3] == [
        "Town of Los Robles",
        "FOG Control Program",
        "Dana Reyes, FOG Manager",
    ]
    town_profile_update(acting_user=manager, name="City of Los Robles")
    assert IssuedDocument.objects.get(pk=document.pk).letterhead.startswith("Town of Los Robles")


def test_a_missing_value_is_refused_naming_the_placeholder(town):
    with pytest.raises(ValidationError) as error:
        issue_letter(town, context={"business_name": "Blue Plate Diner", "body_text": "  "})
    assert "context" in error.value.message_dict
    assert "{body_text}" in error.value.message_dict["context"][0]
    assert not IssuedDocument.objects.exists()


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"method": "carrier_pigeon"}, "service_method"),
        ({"method": "certified_mail"}, "article_number"),
        ({"method": "registered_mail", "article_number": " "}, "article_number"),
        ({"served_on": dt.date.today() + dt.timedelta(days=3)}, "served_on"),
        ({"issued_on": dt.date.today() + dt.timedelta(days=3)}, "issued_on"),
        ({"addressee": ""}, "addressee"),
        ({"key": "no_such_document"}, "key"),
    ],
)
def test_bad_input_is_refused_naming_the_field(town, fields, field):
    with pytest.raises(ValidationError) as error:
        issue_letter(town, **fields)
    assert field in error.value.message_dict
    assert not IssuedDocument.objects.exists()


def test_only_staff_who_issue_documents_may_issue(town):
    for role in (Role.STAFF_READONLY, Role.FSE, Role.HAULER):
        with pytest.raises(PermissionDenied):
            issue_letter(town, acting_user=town.users[role])


def test_certified_mail_is_recorded_with_its_article_number(town, today):
    document = issue_letter(
        town, method="certified_mail", article_number="9407 1000 0000 0000 0001", served_on=today
    )
    service = document.services.get()
    assert service.method == "certified_mail" and service.article_number == "9407 1000 0000 0000 0001"
    assert service.served_on == today


def test_service_recorded_later_stands_and_the_earlier_one_stays_on_record(town, manager, today):
    document = issue_letter(town, method="certified_mail", article_number="9407-1")
    assert IssuedDocument.objects.served(False).filter(pk=document.pk).exists()
    with pytest.raises(ValidationError) as error:
        document_record_service(acting_user=manager, document=document, service_method="certified_mail",
                                served_on=today)  # fmt: skip
    assert "article_number" in error.value.message_dict
    with pytest.raises(ValidationError) as error:
        document_record_service(
            acting_user=manager, document=document, service_method="email", served_on=None
        )
    assert "served_on" in error.value.message_dict
    later = document_record_service(
        acting_user=manager, document=document, service_method="certified_mail", served_on=today,
        article_number="9407-1", note="Green card returned",
    )  # fmt: skip
    assert DocumentService.objects.filter(document=document).count() == 2
    assert IssuedDocument.objects.served().filter(pk=document.pk).exists()
    assert AuditEntry.objects.filter(action="document.service", object_id=str(later.pk)).exists()
    with pytest.raises(PermissionDenied):
        document_record_service(acting_user=town.users[Role.FSE], document=document, service_method="email",
                                served_on=today)  # fmt: skip


def test_the_version_in_force_on_the_issue_date_writes_the_document(town):
    adopted_version("general_letter", 1, body="Old wording for {business_name}. {body_text}", days=100)
    adopted_version("general_letter", 2, body="New wording for {business_name}. {body_text}", days=10)
    older = issue_letter(town, issued_on=days_ago(50))
    newer = issue_letter(town)
    assert older.title == newer.title == "Letter to Blue Plate Diner"
    assert older.body.startswith("Old wording for Blue Plate Diner.") and older.template_version == 1
    assert newer.body.startswith("New wording for Blue Plate Diner.") and newer.template_version == 2
    with pytest.raises(ValidationError) as error:
        issue_letter(town, issued_on=days_ago(200))
    assert "issued_on" in error.value.message_dict


def test_an_older_document_keeps_its_text_when_the_template_changes(town):
    adopted_version("general_letter", 1, body="Old wording for {business_name}. {body_text}", days=100)
    older = issue_letter(town, issued_on=days_ago(50))
    adopted_version("general_letter", 2, body="New wording. {body_text}", days=5)
    again = IssuedDocument.objects.get(pk=older.pk)
    assert again.body == older.body and again.body.startswith("Old wording")


def test_a_wording_that_drops_a_placeholder_needs_no_value_for_it(town, manager):
    adopted_version("general_letter", 1, title="A letter", body="{body_text}", days=3)
    document = document_issue(
        acting_user=manager, key="general_letter", establishment=town.own_fse, addressee="Blue Plate Diner",
        context={"body_text": "Hello."}, service_method="email", served_on=None,
    )  # fmt: skip
    assert document.title == "A letter" and document.body == "Hello."


def test_an_issued_document_is_a_copy_of_record_nothing_can_change(town):
    document = issue_letter(town)
    issued_text = document.body
    with pytest.raises(RecordImmutable):
        document.body = "Changed"
        document.save()
    with pytest.raises(RecordImmutable):
        document.delete()
    table = IssuedDocument._meta.db_table
    for statement in (f"UPDATE {table} SET body = 'changed'", f"DELETE FROM {table}"):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)
    assert IssuedDocument.objects.get(pk=document.pk).body == issued_text
