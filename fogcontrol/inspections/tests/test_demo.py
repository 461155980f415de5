"""The demo town has a year of inspections: the due list, the risk order and findings show something real."""

import pytest

from fogcontrol.demo.run import seed_demo
from fogcontrol.findings.models import Finding
from fogcontrol.inspections.due import inspections_due
from fogcontrol.inspections.models import Inspection
from fogcontrol.program.selectors import town_today


@pytest.mark.provision("D8")
@pytest.mark.django_db(transaction=False)
def test_d8_the_demo_town_has_a_year_of_inspections_with_findings(
    settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.MEDIA_ROOT = tmp_path
    result = seed_demo(establishments=40, seed=7)
    assert ("fogcontrol.inspections.demo.seed", True) in [tuple(row[:2]) for row in result.seeders]
    completed = Inspection.objects.filter(status=Inspection.Status.COMPLETED)
    assert completed.count() >= 15
    assert Inspection.objects.filter(status=Inspection.Status.DRAFT, scheduled_on=town_today()).exists()
    assert Finding.objects.exists() and Finding.objects.filter(closed_on__isnull=False).exists()
    due = inspections_due("seed_demo", on=town_today())
    assert due and all(item.reasons for item in [d.risk for d in due])
    assert [d.priority for d in due] == sorted((d.priority for d in due), reverse=True)
