"""The nightly reminders (issue #17): what is due, selected set-based, written once and e-mailed.

``reminders_send_due(on=, acting_user=)`` is the sweep's entry point (and ``send_reminders``'):

- device service due within ``service_reminder_days`` (E1), and overdue: the FSE, the property
  owner (A2) and the haulers it engaged;
- permit renewal within ``permit_renewal_window_days`` of its renewal date, no renewal open (B6);
- annual training due within ``records_reminder_days`` (C4) and reports due within it, not yet
  handed in (C5, F2, F3, F6): the FSE;
- an open invoice issued (Q1, P8, N1) and one gone delinquent: the debtor (the FSE, or the party);
- a hearing set (L2, P5, M3), again when its date moves: the FSE and the property owner.

Each kind is one query (or two) over the whole town, and the recipients of every establishment
concerned are loaded at once (``recipients.establishments_with_contacts``). A message is written
once per recipient × kind × record × due date (``messages.dedupe_key``), so running the sweep twice
on a day, or every day of a reminder window, sends each reminder once.
"""

from __future__ import annotations

import datetime as dt

from django.db.models import Max

from fogcontrol.billing.models import Invoice
from fogcontrol.core.permissions import require_role
from fogcontrol.enforcement.models import Hearing
from fogcontrol.messaging.models import Kind
from fogcontrol.messaging.recipients import (
    FSE,
    HAULER,
    OWNER,
    establishments_with_contacts,
    of_party,
    recipients_of,
)
from fogcontrol.messaging.roles import MESSAGE_MANAGERS
from fogcontrol.messaging.services.messages import Draft, messages_queue
from fogcontrol.permits.models import PermitStatus
from fogcontrol.permits.selectors import renewal_list
from fogcontrol.program.selectors import ruleset_on, town_calendar
from fogcontrol.records.models import RecordRequirement, RecordSubmission, TrainingSession
from fogcontrol.records.schedule import requirement_periods
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogcontrol.rules.records import next_training_due
from fogcontrol.servicing.models import DeviceServiceState

ACTIVE = FoodServiceEstablishment.Status.ACTIVE


def _fse_values(fse) -> dict:
    return {"business_name": fse.business_name, "site_address": fse.site_address}


def _service(on: dt.date, ruleset) -> list[tuple]:
    """(kind, establishment id, who, subject, due date, values) of devices due soon or overdue."""
    states = (
        DeviceServiceState.objects.filter(
            device__status=GreaseControlDevice.Status.ACTIVE,
            next_due__isnull=False,
            next_due__lte=on + dt.timedelta(days=ruleset.service_reminder_days),
        )
        .select_related("device")
        .prefetch_related("device__establishments")
    )
    found = []
    for state in states:
        kind = Kind.SERVICE_OVERDUE if state.next_due < on else Kind.SERVICE_DUE
        for fse in state.device.establishments.all():
            if fse.status == ACTIVE:
                found.append(
                    (kind, fse.pk, (FSE, OWNER, HAULER), state.device, state.next_due,
                     {"device": state.device.identifier, "due_date": state.next_due})
                )  # fmt: skip
    return found


def _renewals(on: dt.date, ruleset) -> list[tuple]:
    permits = renewal_list(
        "messaging.reminders", on=on, within_days=ruleset.permit_renewal_window_days
    ).filter(status=PermitStatus.ISSUED, renew_by__gte=on, renewal_open=False, establishment__status=ACTIVE)
    return [
        (Kind.PERMIT_RENEWAL, p.establishment_id, (FSE,), p, p.renew_by,
         {"permit_number": p.number or f"#{p.pk}", "renew_by": p.renew_by})
        for p in permits
    ]  # fmt: skip


def _training(on: dt.date, ruleset, calendar) -> list[tuple]:
    horizon = on + dt.timedelta(days=ruleset.records_reminder_days)
    found = []
    last_sessions = (
        TrainingSession.objects.filter(establishment__status=ACTIVE)
        .values("establishment")
        .annotate(last=Max("held_on"))
        .order_by("establishment")
    )
    fses = {}
    for row in last_sessions:
        due = next_training_due(row["last"], ruleset=ruleset, calendar=calendar).due
        if on <= due <= horizon:
            fses[row["establishment"]] = due
    for fse in FoodServiceEstablishment.objects.filter(pk__in=list(fses)):
        due = fses[fse.pk]
        found.append((Kind.TRAINING_DUE, fse.pk, (FSE,), fse, due, {"due_date": due}))
    return found


def _reports(on: dt.date, ruleset, calendar) -> list[tuple]:
    horizon = on + dt.timedelta(days=ruleset.records_reminder_days)
    requirements = list(
        RecordRequirement.objects.filter(establishment__status=ACTIVE, first_due_on__lte=horizon)
        .exclude(ends_on__lt=on)
        .order_by("pk")
    )
    handed_in = set(
        RecordSubmission.objects.filter(requirement__in=[r.pk for r in requirements]).values_list(
            "requirement_id", "period_number"
        )
    )
    found = []
    for requirement in requirements:
        for period in requirement_periods(requirement, through=horizon, calendar=calendar):
            if on <= period.due_on <= horizon and (requirement.pk, period.number) not in handed_in:
                found.append(
                    (Kind.REPORT_DUE, requirement.establishment_id, (FSE,), requirement, period.due_on,
                     {"report": requirement.get_kind_display(), "due_date": period.due_on})
                )  # fmt: skip
    return found


def _invoices(on: dt.date) -> tuple[list[tuple], list[Draft]]:
    """Invoices issued and not delinquent, and delinquent ones: to the FSE, or to the party billed."""
    found, to_parties = [], []
    invoices = Invoice.objects.filter(status=Invoice.Status.OPEN, notice_date__lte=on).select_related(
        "debtor__party"
    )
    for invoice in invoices:
        if invoice.delinquent_on is None:
            kind, due = Kind.INVOICE_ISSUED, invoice.notice_date
        else:
            kind, due = Kind.INVOICE_DELINQUENT, invoice.delinquent_from
        values = {
            "invoice_number": invoice.number,
            "amount": invoice.total,
            "due_date": invoice.last_day_to_pay,
            "delinquent_from": invoice.delinquent_from,
        }
        establishment_id = invoice.establishment_id or invoice.debtor.establishment_id
        if establishment_id is not None:
            found.append((kind, establishment_id, (FSE,), invoice, due, values))
        elif (recipient := of_party(invoice.debtor.party)) is not None:
            values["business_name"] = invoice.debtor.party.name
            to_parties.append(Draft(kind, recipient, invoice, due, values))
    return found, to_parties


def _hearings(on: dt.date) -> list[tuple]:
    hearings = Hearing.objects.filter(
        scheduled_on__gte=on,
        held_on__isnull=True,
        waived_on__isnull=True,
        concluded_on__isnull=True,
        decided_on__isnull=True,
    ).select_related("case")
    return [
        (Kind.HEARING, h.case.establishment_id, (FSE, OWNER), h, h.scheduled_on,
         {"hearing_kind": h.get_kind_display(), "hearing_date": h.scheduled_on,
          "hearing_place": h.place or "the place stated in the notice"})
        for h in hearings
    ]  # fmt: skip


def reminders_due(*, on: dt.date) -> list[Draft]:
    """Every reminder due on ``on``, one draft per recipient (before the once-only check)."""
    ruleset, calendar = ruleset_on(on), town_calendar()
    invoice_rows, drafts = _invoices(on)
    rows = (
        _service(on, ruleset)
        + _renewals(on, ruleset)
        + _training(on, ruleset, calendar)
        + _reports(on, ruleset, calendar)
        + invoice_rows
        + _hearings(on)
    )
    establishments = establishments_with_contacts(row[1] for row in rows)
    for kind, fse_id, who, subject, due, values in rows:
        fse = establishments.get(fse_id)
        if fse is None:
            continue
        for recipient in recipients_of(fse, who):
            drafts.append(Draft(kind, recipient, subject, due, {**_fse_values(fse), **values}, fse.pk))
    return drafts


def reminders_send_due(*, on: dt.date, acting_user) -> dict[str, int]:
    """Queue and send every reminder due on ``on`` not sent before; {kind: messages written now}."""
    require_role(acting_user, MESSAGE_MANAGERS, "Only the FOG Manager and the Billing Clerk send reminders.")
    created = messages_queue(acting_user=acting_user, drafts=reminders_due(on=on), on=on)
    counts = {kind: 0 for kind in Kind.values if kind not in (Kind.PERMIT_NOTICE, Kind.INVITATION)}
    for message in created:
        counts[message.kind] += 1
    return counts
