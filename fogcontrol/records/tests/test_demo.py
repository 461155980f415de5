"""The records part of the demo town: records in every state, and the obligations list of the demo
FSE user, on its page and in the API (C2, C4, C5, D7, E9, F3, F4)."""

import pytest
from django.test import Client

from conftest import api_as
from fogcontrol.accounts.models import User
from fogcontrol.demo.run import seed_demo
from fogcontrol.findings.models import Finding
from fogcontrol.permits.models import PermitCondition
from fogcontrol.records.models import (
    Employee,
    OilPickup,
    RecordSubmission,
    SubmissionReview,
    TrainingAttendance,
)


@pytest.mark.provision("F3")
@pytest.mark.django_db(transaction=False)
def test_f3_demo_town_has_records_in_every_state_and_the_fse_sees_what_it_owes(
    django_capture_on_commit_callbacks,
):
    result = seed_demo(establishments=40, seed=7)
    assert ("fogcontrol.records.demo.seed", True) in [tuple(row[:2]) for row in result.seeders]
    assert TrainingAttendance.objects.exclude(signature="").exists()
    assert Employee.objects.filter(attendances__isnull=True).exists()  # a new hire not yet trained
    assert (
        OilPickup.objects.filter(hauler__isnull=False).exists()
        and OilPickup.objects.filter(hauler=None).exists()
    )
    outcomes = set(SubmissionReview.objects.values_list("outcome", flat=True))
    assert outcomes == {"accepted", "needs_correction"}
    assert RecordSubmission.objects.filter(review__isnull=True).exists()
    assert RecordSubmission.objects.filter(corrects__isnull=False).exists()
    assert Finding.objects.filter(source=Finding.Source.RECORDS, provision="F3").exists()
    assert Finding.objects.filter(source=Finding.Source.RECORDS, provision="C4").exists()  # late training
    assert PermitCondition.objects.filter(source="records", ended_on__isnull=True).exists()

    fse_user = User.objects.get(username="fse")
    establishment = fse_user.establishments.get()
    items = api_as(fse_user).get(f"/api/v1/establishments/{establishment.pk}/obligations/").json()
    statuses = {item["status"] for item in items}
    kinds = {item["kind"] for item in items}
    assert {"late", "done"} <= statuses
    assert {"service", "training", "report", "plan", "permit", "finding"} <= kinds
    assert items[0]["status"] == "late"
    client = Client()
    client.force_login(fse_user)
    page = client.get(f"/records/establishments/{establishment.pk}/obligations/").content.decode()
    assert "Train new employee Alex Moreno" in page and "Self-monitoring report (F3)" in page
