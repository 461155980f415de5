"""Findings: opened with their provision and evidence, closed once with the day, how and why (D4),
seen by the FSE for its own establishments only."""

import datetime as dt

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from fogcontrol.audit.models import AuditEntry
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.roles import Role
from fogcontrol.findings.models import Finding
from fogcontrol.findings.services import finding_close, finding_open

pytestmark = pytest.mark.django_db
DAY = dt.date(2026, 3, 11)


def opened(town, establishment=None, device=None, provision="C1"):
    return finding_open(
        establishment=establishment or town.own_fse,
        device=device,
        provision=provision,
        item="drain_screens",
        description="Drain screens are missing",
        began_on=DAY,
        source=Finding.Source.INSPECTION,
        source_id=1,
        acting_user=town.users[Role.INSPECTOR],
    )


@pytest.mark.provision("D4")
def test_d4_a_finding_is_opened_with_its_provision_and_audited(town):
    finding = opened(town, device=town.own_device)
    assert finding.is_open and finding.provision == "C1"
    assert AuditEntry.objects.filter(action="finding.open", object_id=str(finding.pk)).exists()


def test_a_device_must_serve_the_establishment(town):
    with pytest.raises(ValidationError, match="does not serve"):
        opened(town, device=town.other_device)


@pytest.mark.provision("D4")
def test_d4_closing_records_day_how_and_evidence_once(town):
    finding = opened(town)
    inspector = town.users[Role.INSPECTOR]
    with pytest.raises(ValidationError, match="what shows"):
        finding_close(finding=finding, acting_user=inspector, closed_on=DAY, how="other", evidence=" ")
    with pytest.raises(ValidationError, match="before the day it began"):
        finding_close(
            finding=finding,
            acting_user=inspector,
            closed_on=DAY - dt.timedelta(days=1),
            how="other",
            evidence="x",
        )
    with pytest.raises(ValidationError, match="names the follow-up"):
        finding_close(finding=finding, acting_user=inspector, closed_on=DAY, how="follow_up", evidence="x")
    closed = finding_close(
        finding=finding,
        acting_user=inspector,
        closed_on=DAY,
        how="other",
        evidence="Screens fitted; receipt seen",
    )
    assert closed.closed_on == DAY and closed.closed_how == "other" and not closed.is_open
    with pytest.raises(StateConflict):
        finding_close(finding=finding, acting_user=inspector, closed_on=DAY, how="other", evidence="again")


@pytest.mark.parametrize("role", [Role.FSE, Role.STAFF_READONLY, Role.HEARING_OFFICER])
def test_only_the_fog_manager_and_inspectors_open_and_close(town, role):
    finding = opened(town)
    with pytest.raises(PermissionDenied):
        finding_close(finding=finding, acting_user=town.users[role], closed_on=DAY, how="other", evidence="x")


@pytest.mark.parametrize(
    ("role", "sees_own", "sees_other"),
    [
        (Role.FOG_MANAGER, True, True),
        (Role.STAFF_READONLY, True, True),
        (Role.FSE, True, False),
        (Role.PROPERTY_OWNER, False, False),
        (Role.HAULER, False, False),
    ],
)
def test_who_sees_which_findings(town, role, sees_own, sees_other):
    own, other = opened(town), opened(town, establishment=town.other_fse)
    visible = set(Finding.objects.visible_to(town.users[role]).values_list("pk", flat=True))
    assert (own.pk in visible, other.pk in visible) == (sees_own, sees_other)


def test_a_property_owner_sees_the_findings_of_the_fses_on_its_parcels(town):
    mall = opened(town, establishment=town.mall_fses[0])
    assert list(Finding.objects.visible_to(town.users[Role.PROPERTY_OWNER])) == [mall]
