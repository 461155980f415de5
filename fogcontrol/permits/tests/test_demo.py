"""The permits part of the demo town: lived-in, every permit with its version, every stage of review."""

import pytest

from fogcontrol.demo.run import seed_demo
from fogcontrol.permits.models import (
    ApplicationStatus,
    FeeSchedule,
    Permit,
    PermitModification,
    PermitStatus,
    PermitVersion,
    RemodelNotice,
)
from fogcontrol.permits.selectors import permit_summary_for
from fogcontrol.registry.models import FoodServiceEstablishment


@pytest.mark.django_db(transaction=False)
def test_demo_town_has_permits_in_every_state(django_capture_on_commit_callbacks):
    result = seed_demo(establishments=40, seed=7)
    assert ("fogcontrol.permits.demo.seed", True) in [tuple(row[:2]) for row in result.seeders]
    assert FeeSchedule.objects.count() == 1
    active = FoodServiceEstablishment.objects.filter(status="active").count()
    in_force = Permit.objects.filter(status=PermitStatus.ISSUED).count()
    # Most active FSEs hold a permit (not those without a device, those the demo keeps in review,
    # one a stage, and the two it leaves with none, B1), and most of those permits are in force.
    # (In force against every active FSE, 60% sat within a permit of the random draws, which move
    # with the date: 23 of 39 on 2026-12-01.)
    permitted = Permit.objects.count()
    assert permitted >= active * 0.6
    assert in_force >= permitted * 0.6
    assert Permit.objects.filter(status=PermitStatus.EXPIRED).exists() or active < 20
    assert PermitVersion.objects.count() >= Permit.objects.count()
    assert not Permit.objects.filter(number__isnull=True).exists()
    statuses = set(
        FoodServiceEstablishment.objects.values_list("permit_applications__status", flat=True).exclude(
            permit_applications__isnull=True
        )
    )
    assert {
        ApplicationStatus.SUBMITTED,
        ApplicationStatus.INFORMATION_REQUESTED,
        ApplicationStatus.ISSUED,
    } <= statuses
    assert PermitModification.objects.filter(status="notified").exists()
    assert RemodelNotice.objects.count() == 1
    entry = permit_summary_for(result.town.users["fse"])[0]
    assert entry.permit is not None and entry.pending_changes
