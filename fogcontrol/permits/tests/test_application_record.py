"""B3/B4 + F7: a submitted application is kept as an unalterable, hash-chained copy of record."""

import json

import pytest
from django.db import DatabaseError, connection, transaction

from fogcontrol.core.errors import RecordImmutable
from fogcontrol.core.records import verify_chain
from fogcontrol.permits import services
from fogcontrol.permits.models import ApplicationSubmission


@pytest.mark.provision("B3")
def test_b3_submitting_keeps_exactly_what_was_submitted_by_whom_and_when(draft, fse_user):
    application = services.application_submit(application=draft, acting_user=fse_user)
    record = ApplicationSubmission.objects.get(application=application)
    kept = json.loads(record.submission)
    assert kept["application"]["applicant_name"] == application.applicant_name
    assert record.submitted_by == fse_user
    assert record.received_at is not None
    assert len(record.record_hash) == 64
    assert verify_chain(ApplicationSubmission).ok


@pytest.mark.provision("F7")
def test_f7_the_submission_cannot_be_changed_through_the_orm(draft, fse_user):
    services.application_submit(application=draft, acting_user=fse_user)
    record = ApplicationSubmission.objects.get()
    record.submission = "{}"
    with pytest.raises(RecordImmutable):
        record.save()
    with pytest.raises(RecordImmutable):
        record.delete()


@pytest.mark.provision("F7")
def test_f7_the_database_refuses_raw_sql_changes_to_a_submission(draft, fse_user):
    services.application_submit(application=draft, acting_user=fse_user)
    table = ApplicationSubmission._meta.db_table
    for statement in (f"UPDATE {table} SET submission = '{{}}'", f"DELETE FROM {table}"):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement)
    assert json.loads(ApplicationSubmission.objects.get().submission) != {}
