"""The demo town has enforcement cases at every stage this app records (its speed: bench/seed_demo.py)."""

import pytest

from fogcontrol.demo.run import seed_demo
from fogcontrol.enforcement.models import (
    AdministrativeCitation,
    Case,
    ComplianceAgreement,
    Hearing,
    NoticeOfViolation,
    Referral,
    Violation,
)

pytestmark = pytest.mark.django_db


def test_the_demo_has_cases_at_every_stage():
    seed_demo(establishments=20, seed=1)
    assert Violation.objects.exclude(source=Violation.Source.MANUAL).exists()
    assert NoticeOfViolation.objects.exists() and AdministrativeCitation.objects.exists()
    statuses = set(ComplianceAgreement.objects.values_list("status", flat=True))
    assert {ComplianceAgreement.Status.IN_FORCE, ComplianceAgreement.Status.NOT_MET} <= statuses
    assert Hearing.objects.filter(held_on__isnull=True).exists()
    assert Hearing.objects.filter(held_on__isnull=False, decided_on__isnull=True).exists()
    assert Hearing.objects.filter(decided_on__isnull=False).exists()
    assert Referral.objects.filter(outcome_on__isnull=False).exists()
    assert Case.objects.filter(closed_on__isnull=False).exists()
    assert Case.objects.filter(establishment__users__username__isnull=False).exists()  # the demo FSE's own
