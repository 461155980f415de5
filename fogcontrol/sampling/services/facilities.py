"""Monitoring facilities (D7): what the FOG Manager requires of an FSE (flow monitoring, metering,
sampling facilities at an approved location), due ``monitoring_facility_days`` after the
requirement (``rules.sampling.monitoring_facility_due``), and the day each was installed. The
nightly sweep opens one finding for each facility not installed by its due date: set-based, per
batch one SELECT of the overdue facilities, one of the findings already made, one INSERT of the new
findings and one of their audit entries; a facility found overdue once is not found again."""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.core.sweep import pages_by_key
from fogcontrol.findings.models import Finding
from fogcontrol.findings.services import findings_open_bulk
from fogcontrol.program.selectors import ruleset_on, town_calendar, town_today
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.rules.explain import fmt_date
from fogcontrol.rules.sampling import monitoring_facility_due
from fogcontrol.sampling.models import MonitoringFacility
from fogcontrol.sampling.roles import FACILITY_RECORDERS, FACILITY_SETTERS

SWEEP_BATCH = 500
SWEEP_ACTOR = "sampling.nightly"


@transaction.atomic
def facility_require(
    *,
    establishment: FoodServiceEstablishment,
    kind: str,
    description: str,
    location: str,
    required_on: dt.date,
    acting_user,
) -> MonitoringFacility:
    """D7: require a monitoring, metering or sampling facility at the location the FOG Manager
    approved; due ``monitoring_facility_days`` after ``required_on`` (the ruleset in force that day)."""
    require_role(acting_user, FACILITY_SETTERS, "Only the FOG Manager requires monitoring facilities (D7).")
    if required_on is None:
        raise ValidationError({"required_on": "Give the day the facility is required."})
    if required_on > town_today():
        raise ValidationError({"required_on": "Give the day the requirement was made: not a future day."})
    if not (location or "").strip():
        raise ValidationError({"location": "Give the location the FOG Manager approved (D7)."})
    due = monitoring_facility_due(required_on, ruleset=ruleset_on(required_on), calendar=town_calendar())
    facility = MonitoringFacility(
        establishment=establishment,
        kind=kind,
        description=(description or "").strip(),
        location=location.strip(),
        required_on=required_on,
        due_on=due.due,
        due_explanation=due.explanation.as_record(),
        required_by_label=actor_label_for(acting_user),
    )
    facility.full_clean()
    facility.save()
    audit_record(
        acting_user=acting_user,
        action="monitoring_facility.require",
        instance=facility,
        after=snapshot(facility),
    )
    return facility


@transaction.atomic
def facility_installed(
    *, facility: MonitoringFacility, installed_on: dt.date, acting_user
) -> MonitoringFacility:
    """D7: record the day the facility was installed (once)."""
    require_role(
        acting_user, FACILITY_RECORDERS, "Only the FOG Manager and inspectors record a facility installed."
    )
    facility = MonitoringFacility.objects.select_for_update(of=("self",)).get(pk=facility.pk)
    if facility.installed_on is not None:
        raise StateConflict(
            f"This facility was already recorded installed on {facility.installed_on:%Y-%m-%d}."
        )
    if installed_on is None:
        raise ValidationError({"installed_on": "Give the day it was installed."})
    if installed_on > town_today():
        raise ValidationError({"installed_on": "Give the day it was installed: not a future day."})
    if installed_on < facility.required_on:
        raise ValidationError({"installed_on": "It cannot be installed before it was required."})
    before = snapshot(facility)
    facility.installed_on = installed_on
    facility.installed_recorded_by_label = actor_label_for(acting_user)
    facility.save(update_fields=["installed_on", "installed_recorded_by_label"])
    audit_record(
        acting_user=acting_user,
        action="monitoring_facility.installed",
        instance=facility,
        before=before,
        after=snapshot(facility),
    )
    return facility


def _overdue_findings(batch, found: set[int]) -> list[Finding]:
    new = []
    for facility in batch:
        if facility.pk in found:
            continue
        new.append(
            Finding(
                establishment_id=facility.establishment_id,
                provision="D7",
                item=f"monitoring facility {facility.pk}",
                description=(
                    f"{facility.get_kind_display()} required on {fmt_date(facility.required_on)} at "
                    f"{facility.location} was not installed by {fmt_date(facility.due_on)} (D7)."
                ),
                began_on=facility.due_on + dt.timedelta(days=1),
                source=Finding.Source.FACILITY,
                source_id=facility.pk,
            )
        )
    return new


def facilities_overdue_sweep(*, today: dt.date | None = None, acting_user=SWEEP_ACTOR) -> int:
    """D7: open one finding for each required facility not installed by its due date, set-based, a
    batch at a time. Returns how many findings were opened; a second run opens none."""
    today = today or town_today()
    overdue = MonitoringFacility.objects.filter(installed_on__isnull=True, due_on__lt=today).order_by("pk")
    opened = 0
    for batch in pages_by_key(overdue, SWEEP_BATCH):
        with transaction.atomic():
            found = set(
                Finding.objects.filter(
                    source=Finding.Source.FACILITY, source_id__in=[f.pk for f in batch]
                ).values_list("source_id", flat=True)
            )
            new = _overdue_findings(batch, found)
            if new:
                findings_open_bulk(
                    findings=new,
                    acting_user=acting_user,
                    note="A required monitoring facility is overdue (D7).",
                )
            opened += len(new)
    return opened
