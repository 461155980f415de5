"""An FSE's spill and upset notice (J1) and its written report (J2), which is a copy of record.
Notice relieves no liability (J3): a linked overflow still counts."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import actor_label_for, is_job, person
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.core.records import canonical_submission, record_append
from fogcontrol.core.roles import Role
from fogcontrol.program.models import RulesetVersion
from fogcontrol.program.selectors import ruleset_on, town_calendar, town_zone
from fogcontrol.records.services.common import require_bound
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.rules import spills as rules
from fogcontrol.rules.ruleset import CHAPTER_10_02
from fogcontrol.spills.models import Spill, SpillReport, WrittenSpillReport
from fogcontrol.spills.roles import REPORTERS


def incident_day(occurred_at: dt.datetime, zone=None) -> dt.date:
    return timezone.localtime(occurred_at, zone or town_zone()).date()


def written_deadline(report: SpillReport):
    """J2: the written report's due date, with its working, from the day of the incident."""
    day = incident_day(report.occurred_at)
    return rules.written_report_due(day, ruleset=ruleset_on(day), calendar=town_calendar())


class WrittenDeadlines:
    """J2 for many reports (a list): the calendar and the ruleset versions read once, on first use,
    so a list of reports takes the same queries at any length."""

    def __init__(self):
        self._calendar = None
        self._zone = None
        self._versions: list[RulesetVersion] = []

    def __call__(self, report: SpillReport):
        if self._calendar is None:
            self._calendar, self._zone = town_calendar(), town_zone()
            self._versions = list(RulesetVersion.objects.order_by("effective_from"))
        day = incident_day(report.occurred_at, self._zone)
        in_force = [version for version in self._versions if version.effective_from <= day]
        ruleset = in_force[-1].as_ruleset() if in_force else CHAPTER_10_02
        return rules.written_report_due(day, ruleset=ruleset, calendar=self._calendar)


@transaction.atomic
def report_record(
    *,
    establishment: FoodServiceEstablishment,
    occurred_at: dt.datetime,
    location: str,
    what: str,
    acting_user,
    gallons: Decimal | None = None,
    caller: str = "",
    spill: Spill | None = None,
) -> SpillReport:
    """Record an FSE's immediate notice of a spill or upset (J1): from the FSE in the portal, or a
    phone call staff log. The written report falls due at once (J2), counted in working days."""
    require_role(acting_user, REPORTERS, "Only the FSE and Town staff report spills.")
    require_bound(acting_user, establishment, "report spills")
    portal = not is_job(acting_user) and acting_user.role == Role.FSE
    if spill is not None and portal:
        raise PermissionDenied("Only Town staff link a report to a sewer overflow.")
    if occurred_at > timezone.now() + dt.timedelta(minutes=5):
        raise ValidationError({"occurred_at": _("A spill being reported cannot be in the future.")})
    if gallons is not None and gallons < 0:
        raise ValidationError({"gallons": _("Give 0 gallons or more (leave it empty when not known).")})
    if not (location or "").strip():
        raise ValidationError({"location": _("Say where it happened.")})
    if not (what or "").strip():
        raise ValidationError({"what": _("Say what spilled or went wrong.")})
    report = SpillReport(
        establishment=establishment,
        spill=spill,
        channel=SpillReport.Channel.PORTAL if portal else SpillReport.Channel.PHONE,
        caller=(caller or "").strip()[:150],
        occurred_at=occurred_at,
        location=location.strip(),
        what=what.strip(),
        gallons=gallons,
        written_due_on=dt.date.min,
        reported_by=person(acting_user),
        reported_by_label=actor_label_for(acting_user),
    )
    report.written_due_on = written_deadline(report).due
    report.full_clean()
    report.save()
    audit_record(
        acting_user=acting_user, action="spill_report.record", instance=report, after=snapshot(report)
    )
    return report


@transaction.atomic
def written_report_submit(
    *, report: SpillReport, incident_on: dt.date, cause: str, steps_taken: str, prevention: str, acting_user
) -> WrittenSpillReport:
    """The written report (J2): the date of the incident, why it happened, the steps taken at once
    by the FSE and the Town, and what will prevent it again. A copy of record, sent once."""
    require_role(acting_user, REPORTERS, "Only the FSE and Town staff send the written report.")
    require_bound(acting_user, report.establishment, "send written spill reports")
    SpillReport.objects.select_for_update(of=("self",)).filter(pk=report.pk).values("pk").first()
    if WrittenSpillReport.objects.filter(report=report).exists():
        raise StateConflict(_("The written report of this spill was already sent."))
    errors = {}
    for name, value in (("cause", cause), ("steps_taken", steps_taken), ("prevention", prevention)):
        if not (value or "").strip():
            errors[name] = _("J2 asks for this: say it in a sentence or two.")
    if incident_on and incident_on > incident_day(report.occurred_at) + dt.timedelta(days=1):
        errors["incident_on"] = _("The incident cannot be after the day it was reported.")
    if errors:
        raise ValidationError(errors)
    written = WrittenSpillReport(
        report=report,
        incident_on=incident_on,
        cause=cause.strip(),
        steps_taken=steps_taken.strip(),
        prevention=prevention.strip(),
        submission=canonical_submission(
            {
                "report": report.pk,
                "establishment": report.establishment_id,
                "incident_on": incident_on.isoformat(),
                "cause": cause.strip(),
                "steps_taken": steps_taken.strip(),
                "prevention": prevention.strip(),
            }
        ),
    )
    record_append(written, acting_user=acting_user)
    audit_record(
        acting_user=acting_user, action="spill_report.written", instance=written, after=snapshot(written)
    )
    return written
