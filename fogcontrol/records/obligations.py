"""Everything an FSE owes the Town and when, late first, each with how to fix it: service (E1, E6),
training (C4), reports (C5, F2, F3, F6), plans and data (D7, E9), the permit renewal (B1, B6),
open findings (D4) and fees, charges and penalties owed (Q1, Q2: asked of ``fogcontrol.core.owed``,
which billing answers).

A selector: the caller fetches the establishment through a scoped selector first (outside the
scope: 404); this reads the rest for it, a fixed number of queries whatever the number of items.
Every due date comes from the rules with its explanation ("Counting days").
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from fogcontrol.core import owed as core_owed
from fogcontrol.findings.models import Finding
from fogcontrol.permits.models import Permit, PermitApplication, PermitStatus
from fogcontrol.permits.selectors import OPEN_STATUSES
from fogcontrol.program.selectors import ruleset_on, town_calendar
from fogcontrol.records.models import Employee, RecordRequirement, RecordSubmission, SubmissionReview
from fogcontrol.records.schedule import requirement_periods
from fogcontrol.registry.models import FoodServiceEstablishment
from fogcontrol.rules.deadlines import next_service_deadline
from fogcontrol.rules.explain import fmt_date, say
from fogcontrol.rules.records import (
    DONE,
    DUE,
    LATE,
    REQUEST_KINDS,
    new_hire_training_due,
    next_training_due,
    obligation_status,
    status_order,
)
from fogcontrol.rules.ruleset import Ruleset
from fogcontrol.servicing.models import DeviceServiceState

SERVICE, TRAINING, REPORT, PLAN, PERMIT, FINDING, FEES = (
    "service",
    "training",
    "report",
    "plan",
    "permit",
    "finding",
    "fees",
)
KINDS = (SERVICE, TRAINING, REPORT, PLAN, PERMIT, FINDING, FEES)
# The statuses as the list's badges say them (`item.status|capfirst|translated`).
STATUS_LABELS = (gettext_noop("Late"), gettext_noop("Due"), gettext_noop("Upcoming"), gettext_noop("Done"))


@dataclasses.dataclass(frozen=True)
class Obligation:
    """One thing the FSE owes: what, by when, where it stands, the rule and how to put it right."""

    kind: str
    title: str
    due_on: dt.date
    status: str
    provision: str
    explanation: str  # how the date was worked out, in English (the language of record) or in words
    how_to_fix: str
    working: Any = None  # the same working to say in the reader's language (an Explanation or a record)


def _service(establishment, on: dt.date, ruleset: Ruleset, calendar) -> list[Obligation]:
    items = []
    states = DeviceServiceState.objects.filter(device__establishments=establishment).select_related("device")
    for state in states:
        device = state.device.identifier
        if state.status == "over_limit" or state.immediate_service_required:
            items.append(
                Obligation(
                    SERVICE,
                    _("Service device %(device)s now") % {"device": device},
                    state.fill_ratio_on or on,
                    LATE,
                    "E6",
                    _(
                        "The last reading found FOG and solids over the limit: the device must be serviced "
                        "immediately (E3, E6)."
                    ),
                    _("Have a licensed hauler pump it out now; the hauler's manifest records it (F1)."),
                )
            )
        elif state.last_full_pumpout is None or state.next_due is None:
            items.append(
                Obligation(
                    SERVICE,
                    _("Service device %(device)s") % {"device": device},
                    on,
                    DUE,
                    "E1",
                    _("No full pump-out of this device is on record."),
                    _("Have a licensed hauler pump it out and submit the manifest (F1)."),
                )
            )
        else:
            deadline = next_service_deadline(
                state.last_full_pumpout,
                ruleset=ruleset,
                calendar=calendar,
                frequency_days=state.frequency_days,
            )
            status = (
                LATE
                if on >= deadline.lapses_on
                else obligation_status(deadline.due, done=False, on=on, ruleset=ruleset)
            )
            items.append(
                Obligation(
                    SERVICE,
                    _("Service device %(device)s") % {"device": device},
                    deadline.due,
                    status,
                    "E1",
                    deadline.explanation.text(),
                    _("Have a licensed hauler pump it out by the due date; the manifest records it (F1)."),
                    working=deadline.explanation,
                )
            )
    return items


def _training(establishment, on: dt.date, ruleset: Ruleset, calendar) -> list[Obligation]:
    items = []
    last = establishment.training_sessions.aggregate(last=Max("held_on"))["last"]
    fix = _("Train every employee in the four C4 subjects and record the session with each signature.")
    if last is None:
        items.append(
            Obligation(
                TRAINING,
                _("Employee training"),
                on,
                DUE,
                "C4",
                _("No employee training is on record (C4)."),
                fix,
            )
        )
    else:
        deadline = next_training_due(last, ruleset=ruleset, calendar=calendar)
        status = obligation_status(deadline.due, done=False, on=on, ruleset=ruleset)
        items.append(
            Obligation(
                TRAINING,
                _("Annual employee training"),
                deadline.due,
                status,
                "C4",
                deadline.explanation.text(),
                fix,
                working=deadline.explanation,
            )
        )
    untrained = Employee.objects.filter(establishment=establishment, attendances__isnull=True)
    for employee in untrained:
        deadline = new_hire_training_due(employee.hire_date, ruleset=ruleset, calendar=calendar)
        status = (
            LATE
            if on >= deadline.lapses_on
            else obligation_status(deadline.due, done=False, on=on, ruleset=ruleset)
        )
        items.append(
            Obligation(
                TRAINING,
                _("Train new employee %(name)s") % {"name": employee.name},
                deadline.due,
                status,
                "C4",
                deadline.explanation.text(),
                _("Train them in the four C4 subjects and have them sign the roster."),
                working=deadline.explanation,
            )
        )
    return items


def _latest_in_chain(
    submission: RecordSubmission, corrections: dict[int, RecordSubmission]
) -> RecordSubmission:
    while submission.pk in corrections:
        submission = corrections[submission.pk]
    return submission


def _reports(establishment, on: dt.date, ruleset: Ruleset, calendar) -> list[Obligation]:
    requirements = list(RecordRequirement.objects.filter(establishment=establishment).order_by("pk"))
    submissions = list(
        RecordSubmission.objects.filter(requirement__establishment=establishment)
        .select_related("review")
        .order_by("pk")
    )
    originals = {(s.requirement_id, s.period_number): s for s in submissions if s.corrects_id is None}
    corrections = {s.corrects_id: s for s in submissions if s.corrects_id is not None}
    items = []
    for requirement in requirements:
        kind = PLAN if requirement.kind in REQUEST_KINDS else REPORT
        what = requirement.get_kind_display()
        last_done = None
        for period in requirement_periods(requirement, through=on, calendar=calendar):
            title = (
                what
                if requirement.unit == "once"
                else _("%(what)s, report %(number)s") % {"what": what, "number": period.number}
            )
            original = originals.get((requirement.pk, period.number))
            if original is None:
                status = obligation_status(period.due_on, done=False, on=on, ruleset=ruleset)
                items.append(
                    Obligation(
                        kind,
                        title,
                        period.due_on,
                        status,
                        requirement.provision,
                        period.deadline.explanation.text(),
                        _("Upload it on the records page (a PDF or a photo of each page).")
                        + (
                            " " + _("It is late: submit it now; the Town records a finding (F3, F4).")
                            if status == LATE
                            else ""
                        ),
                        working=period.deadline.explanation,
                    )  # fmt: skip
                )
                continue
            latest = _latest_in_chain(original, corrections)
            review = getattr(latest, "review", None)  # None when not yet reviewed
            if review is not None and review.outcome == SubmissionReview.Outcome.NEEDS_CORRECTION:
                items.append(
                    Obligation(
                        kind,
                        _("Correct: %(title)s") % {"title": title},
                        review.reviewed_on,
                        DUE,
                        requirement.provision,
                        f"Staff reviewed the submission of {fmt_date(timezone.localtime(latest.received_at).date())} on "
                        f"{fmt_date(review.reviewed_on)}: it needs correction. {review.reason}",
                        _("Submit a correction on the records page; it is kept beside the original."),
                    )  # fmt: skip
                )
            else:
                # Of the reports handed in, the list shows the latest: what was done, not all history.
                outcome = _("accepted") if review is not None else _("submitted, awaiting review")
                last_done = Obligation(
                    kind, title, period.due_on, DONE, requirement.provision,
                    f"Received {fmt_date(timezone.localtime(latest.received_at).date())}: {outcome}.", _("Nothing to do."),
                    working=say(
                        "Received %(day)s: %(outcome)s.", day=fmt_date(timezone.localtime(latest.received_at).date()),
                        outcome=say("accepted") if review is not None else say("submitted, awaiting review"),
                    ),
                )  # fmt: skip
        if last_done is not None:
            items.append(last_done)
    return items


def _permit_working(permit, renew_by: dt.date, *, renewing: bool):
    """B6: the permit's renewal date in words, said again in the reader's language (issue 18)."""
    values = {"number": permit.number, "until": fmt_date(permit.valid_until), "renew_by": fmt_date(renew_by)}
    if renewing:
        return say(
            "Permit %(number)s runs until %(until)s and is renewed with the business licence (B6); renew by "
            "%(renew_by)s. A renewal application is open.",
            **values,
        )
    return say(
        "Permit %(number)s runs until %(until)s and is renewed with the business licence (B6); renew by "
        "%(renew_by)s.",
        **values,
    )


def _permit(establishment, on: dt.date, ruleset: Ruleset) -> list[Obligation]:
    permit = (
        Permit.objects.filter(
            establishment=establishment, status__in=[PermitStatus.ISSUED, PermitStatus.EXPIRED]
        )
        .order_by("-valid_until", "-pk")
        .first()
    )
    if permit is None:
        return [
            Obligation(
                PERMIT,
                _("FOG permit"),
                on,
                LATE,
                "B1",
                "The establishment holds no FOG permit: discharging without one is a violation (B1).",
                _("Apply for a FOG permit on the permits page."),
                working=say(
                    "The establishment holds no FOG permit: discharging without one is a violation (B1)."
                ),
            )  # fmt: skip
        ]
    renew_by = min(permit.valid_until, establishment.licence_expires_on or permit.valid_until)
    renewing = PermitApplication.objects.filter(previous_permit=permit, status__in=OPEN_STATUSES).exists()
    if renewing:
        status = DONE
    elif on > renew_by:
        status = LATE
    elif (renew_by - on).days <= ruleset.permit_renewal_window_days:
        status = DUE
    else:
        status = obligation_status(renew_by, done=False, on=on, ruleset=ruleset)
    return [
        Obligation(
            PERMIT,
            _("Renew permit %(number)s") % {"number": permit.number},
            renew_by,
            status,
            "B6",
            f"Permit {permit.number} runs until {fmt_date(permit.valid_until)} and is renewed with the business "
            f"licence (B6); renew by {fmt_date(renew_by)}."
            + (" A renewal application is open." if renewing else ""),
            _("Nothing to do until the Town decides.")
            if renewing
            else _("Apply to renew on the permits page."),
            working=_permit_working(permit, renew_by, renewing=renewing),
        )  # fmt: skip
    ]


def _findings(establishment) -> list[Obligation]:
    return [
        Obligation(
            FINDING,
            _("Correct: %(title)s") % {"title": finding.item},
            finding.began_on,
            LATE,
            finding.provision,
            f"Found on {fmt_date(finding.began_on)}: {finding.description}",
            _("Correct it and tell the inspector; a follow-up inspection closes the finding (D4)."),
            working=say(
                "Found on %(day)s: %(description)s",
                day=fmt_date(finding.began_on),
                description=finding.description,
            ),
        )  # fmt: skip
        for finding in Finding.objects.filter(establishment=establishment, closed_on__isnull=True).order_by(
            "began_on", "pk"
        )
    ]


def _fees(establishment, on: dt.date, ruleset: Ruleset, calendar) -> list[Obligation]:
    """Fees, charges and penalties owed (Q1, Q2), as ``fogcontrol.core.owed`` answers them (billing's
    invoices, its charges not yet invoiced and the records not yet picked up; the citations, P2):
    each with its last day to pay and how it was counted, late once past it or delinquent. A fixed
    number of queries whatever the number of amounts."""
    items = []
    for owed in core_owed.amounts_owed(establishment.pk, on, ruleset=ruleset, calendar=calendar):
        if owed.amount <= 0:
            continue
        late = owed.delinquent or (owed.due_on is not None and on > owed.due_on)
        items.append(
            Obligation(
                FEES,
                _("Pay %(amount)s: %(what)s") % {"amount": f"${owed.amount:,.2f}", "what": owed.label},
                owed.due_on or on,
                LATE if late else DUE,
                owed.provision or "Q1",
                owed.explanation,
                _(
                    "Pay the Town by the due date; unpaid after it, the amount is a debt and the business "
                    "licence is not renewed (Q2)."
                ),
                working=owed.working,
            )
        )
    return items


def obligations_for(establishment: FoodServiceEstablishment, *, on: dt.date) -> list[Obligation]:
    """Everything the FSE owes on ``on``: late first, then due, upcoming and done, each by due date
    (C4, C5, D7, E1, E6, E9, F2, F3, F6, B1, B6, D4, Q1)."""
    ruleset, calendar = ruleset_on(on), town_calendar()
    items = [
        *_service(establishment, on, ruleset, calendar),
        *_training(establishment, on, ruleset, calendar),
        *_reports(establishment, on, ruleset, calendar),
        *_permit(establishment, on, ruleset),
        *_findings(establishment),
        *_fees(establishment, on, ruleset, calendar),
    ]
    return sorted(items, key=lambda item: (status_order(item.status), item.due_on, KINDS.index(item.kind)))
