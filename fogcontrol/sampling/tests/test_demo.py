"""The demo town has samples with their custody and results (one over its limit, so a finding),
monitoring facilities (one overdue, so a finding) and D6 charges priced from the schedule."""

import pytest

from fogcontrol.demo.run import seed_demo
from fogcontrol.findings.models import Finding
from fogcontrol.inspections.models import ComplianceCharge
from fogcontrol.sampling.models import CustodyTransfer, LabResult, MonitoringFacility, Sample


@pytest.mark.provision("D5")
@pytest.mark.django_db(transaction=False)
def test_d5_d6_d7_the_demo_town_has_samples_facilities_and_charges(
    settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.MEDIA_ROOT = tmp_path
    result = seed_demo(establishments=40, seed=7)
    assert ("fogcontrol.sampling.demo.seed", True) in [tuple(row[:2]) for row in result.seeders]
    assert Sample.objects.count() >= 3 and CustodyTransfer.objects.count() == 2 * Sample.objects.count()
    assert LabResult.objects.filter(outside=True).count() == 1
    assert Finding.objects.filter(source=Finding.Source.SAMPLE, provision="D5").count() == 1
    assert Finding.objects.filter(source=Finding.Source.FACILITY, provision="D7").count() == 1
    assert MonitoringFacility.objects.filter(installed_on__isnull=False).exists()
    charges = ComplianceCharge.objects.all()
    assert charges.filter(sample_id__isnull=False).count() == 2 and all(c.amount > 0 for c in charges)
