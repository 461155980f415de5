"""The nightly reminders (issue #17): what is due, selected set-based, written once and e-mailed.

``reminders_send_due(on=, acting_user=)`` is the sweep's entry point (and ``send_reminders``'):

- device service due within ``service_reminder_days`` (E1), and overdue: the FSE, the property
  owner (A2) and the haulers it engaged;
- permit renewal within ``permit_renewal_window_days`` of its renewal date, no renewal open (B6);
- annual training due within ``records_reminder_days`` (C4) and reports due within it, not yet
  handed in (C5, F2, F3, F6): the FSE;
- an open invoice issued (Q1, P8, N1) and one gone delinquent: the debtor (the FSE, or the party);
- a hearing set (L2, P5, M3), again when its date moves: the FSE and the property owner.

A night's reminders are read, rendered and written a chunk at a time (issue 16): each kind reads
the records it is about ``CHUNK`` at a time by primary key (one query, or two, a page), the
recipients of the page's establishments are loaded at once (``recipients.contacts_of``, from value rows)
and the page's drafts are written by ``messages_queue_kinds`` (``messages_queue_rows`` without the
rows given back) in their own transaction (one SELECT of the keys written, one INSERT of the
messages, one of their audit entries). So the queries a chunk takes
do not grow with it, and memory holds one chunk, not a night. Every draft about one record is in
the record's page, in the order the record gives them, so the first draft of a key wins as when the
night was one list. A message is written once per recipient × kind × record × due date
(``messages.dedupe_key``), so running the sweep twice on a day, or every day of a reminder window,
or again after it stopped half-way, sends each reminder once.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterator
from operator import itemgetter

from django.db.models import Max

from fogcontrol.billing.models import Invoice
from fogcontrol.core.collector import collector_paused
from fogcontrol.core.permissions import require_role
from fogcontrol.core.set_sql import json_values
from fogcontrol.core.sweep import pages_by_key
from fogcontrol.enforcement.models import Hearing
from fogcontrol.messaging.models import Kind
from fogcontrol.messaging.recipients import (
    FSE,
    HAULER,
    OWNER,
    contacts_of,
    of_party,
)
from fogcontrol.messaging.roles import MESSAGE_MANAGERS
from fogcontrol.messaging.services.messages import Draft, Record, messages_queue_kinds
from fogcontrol.permits.models import PermitStatus
from fogcontrol.permits.selectors import renewal_list
from fogcontrol.program.selectors import ruleset_on, town_calendar
from fogcontrol.records.models import RecordRequirement, RecordSubmission, TrainingSession
from fogcontrol.records.schedule import requirement_periods
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice
from fogcontrol.rules.records import next_training_due
from fogcontrol.servicing.models import DeviceServiceState

ACTIVE = FoodServiceEstablishment.Status.ACTIVE


CHUNK = 1000  # records a page of each kind reads: what the step holds in memory at once
Rows = list[tuple]  # (kind, establishment id, who, subject, due date, values)


def _service(on: dt.date, ruleset, size: int) -> Iterator[tuple[Rows, list[Draft]]]:
    """Devices due soon or overdue: each state's active establishments in their order (name, id;
    a shared device's reminders to one hauler are one key: the first establishment's wording
    wins). The states and their devices are read as values (the device is the messages' subject
    by its id, a ``Record``), the establishments as (device, establishment) pairs."""
    states = DeviceServiceState.objects.filter(
        device__status=GreaseControlDevice.Status.ACTIVE,
        next_due__isnull=False,
        next_due__lte=on + dt.timedelta(days=ruleset.service_reminder_days),
    ).values_list("pk", "device_id", "device__identifier", "next_due")
    for page in pages_by_key(states, size, key=itemgetter(0)):
        served = defaultdict(list)
        # The establishments' status is read, not filtered: filtered, SQLite walks every active
        # establishment against the page's thousand devices (0.15 s a page at 1k) instead of the
        # page's devices' links.
        for device_id, fse_id, status in (
            FoodServiceEstablishment.objects.filter(
                devices__in=json_values([device_id for _, device_id, _, _ in page], integers=True)
            )
            .order_by("business_name", "pk")  # device.establishments.all(): the model's ordering
            .values_list("devices", "pk", "status")
        ):
            if status == ACTIVE:
                served[device_id].append(fse_id)
        found = []
        for _, device_id, identifier, next_due in page:
            kind = Kind.SERVICE_OVERDUE if next_due < on else Kind.SERVICE_DUE
            device = Record(GreaseControlDevice, device_id)
            values = {"device": identifier, "due_date": next_due}
            for fse_id in served[device_id]:
                found.append((kind, fse_id, (FSE, OWNER, HAULER), device, next_due, values))
        yield found, []


def _renewals(on: dt.date, ruleset, size: int) -> Iterator[tuple[Rows, list[Draft]]]:
    permits = renewal_list(
        "messaging.reminders", on=on, within_days=ruleset.permit_renewal_window_days
    ).filter(status=PermitStatus.ISSUED, renew_by__gte=on, renewal_open=False, establishment__status=ACTIVE)
    for page in pages_by_key(permits, size):
        yield [
            (Kind.PERMIT_RENEWAL, p.establishment_id, (FSE,), p, p.renew_by,
             {"permit_number": p.number or f"#{p.pk}", "renew_by": p.renew_by})
            for p in page
        ], []  # fmt: skip


def _training(on: dt.date, ruleset, calendar, size: int) -> Iterator[tuple[Rows, list[Draft]]]:
    """The last session of each establishment, ``size`` establishments at a time (by id)."""
    horizon = on + dt.timedelta(days=ruleset.records_reminder_days)
    last_sessions = (
        TrainingSession.objects.filter(establishment__status=ACTIVE)
        .values("establishment")
        .annotate(last=Max("held_on"))
    )
    for page in pages_by_key(last_sessions, size, key=itemgetter("establishment"), by="establishment"):
        fses = {}
        for row in page:
            due = next_training_due(row["last"], ruleset=ruleset, calendar=calendar).due
            if on <= due <= horizon:
                fses[row["establishment"]] = due
        if fses:
            yield [
                (Kind.TRAINING_DUE, fse.pk, (FSE,), fse, fses[fse.pk], {"due_date": fses[fse.pk]})
                for fse in FoodServiceEstablishment.objects.filter(pk__in=list(fses))
            ], []  # fmt: skip


def _reports(on: dt.date, ruleset, calendar, size: int) -> Iterator[tuple[Rows, list[Draft]]]:
    horizon = on + dt.timedelta(days=ruleset.records_reminder_days)
    requirements = RecordRequirement.objects.filter(
        establishment__status=ACTIVE, first_due_on__lte=horizon
    ).exclude(ends_on__lt=on)
    for page in pages_by_key(requirements, size):
        handed_in = set(
            RecordSubmission.objects.filter(requirement__in=[r.pk for r in page]).values_list(
                "requirement_id", "period_number"
            )
        )
        found = []
        for requirement in page:
            for period in requirement_periods(requirement, through=horizon, calendar=calendar):
                if on <= period.due_on <= horizon and (requirement.pk, period.number) not in handed_in:
                    found.append(
                        (Kind.REPORT_DUE, requirement.establishment_id, (FSE,), requirement, period.due_on,
                         {"report": requirement.get_kind_display(), "due_date": period.due_on})
                    )  # fmt: skip
        yield found, []


def _invoices(on: dt.date, size: int) -> Iterator[tuple[Rows, list[Draft]]]:
    """Invoices issued and not delinquent, and delinquent ones: to the FSE, or to the party billed."""
    invoices = Invoice.objects.filter(status=Invoice.Status.OPEN, notice_date__lte=on).select_related(
        "debtor__party"
    )
    for page in pages_by_key(invoices, size):
        found, to_parties = [], []
        for invoice in page:
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
        yield found, to_parties


def _hearings(on: dt.date, size: int) -> Iterator[tuple[Rows, list[Draft]]]:
    hearings = Hearing.objects.filter(
        scheduled_on__gte=on,
        held_on__isnull=True,
        waived_on__isnull=True,
        concluded_on__isnull=True,
        decided_on__isnull=True,
    ).select_related("case")
    for page in pages_by_key(hearings, size):
        yield [
            (Kind.HEARING, h.case.establishment_id, (FSE, OWNER), h, h.scheduled_on,
             {"hearing_kind": h.get_kind_display(), "hearing_date": h.scheduled_on,
              "hearing_place": h.place or "the place stated in the notice"})
            for h in page
        ], []  # fmt: skip


def reminder_chunks(*, on: dt.date, chunk_size: int = CHUNK) -> Iterator[list[Draft]]:
    """Every reminder due on ``on``, one draft per recipient (before the once-only check), a page
    of one kind at a time: the drafts of at most ``chunk_size`` records each."""
    ruleset, calendar = ruleset_on(on), town_calendar()
    kinds = (
        _service(on, ruleset, chunk_size),
        _renewals(on, ruleset, chunk_size),
        _training(on, ruleset, calendar, chunk_size),
        _reports(on, ruleset, calendar, chunk_size),
        _invoices(on, chunk_size),
        _hearings(on, chunk_size),
    )
    for pages in kinds:
        for rows, drafts in pages:
            establishments = contacts_of(row[1] for row in rows) if rows else {}
            for kind, fse_id, who, subject, due, values in rows:
                fse = establishments.get(fse_id)
                if fse is None:
                    continue
                for recipient in fse.recipients(who):
                    drafts.append(Draft(kind, recipient, subject, due, {**fse.values, **values}, fse_id))
            if drafts:
                yield drafts


def reminders_due(*, on: dt.date) -> list[Draft]:
    """Every reminder due on ``on``, one draft per recipient (before the once-only check)."""
    return [draft for drafts in reminder_chunks(on=on) for draft in drafts]


def reminders_send_due(*, on: dt.date, acting_user, chunk_size: int = CHUNK) -> dict[str, int]:
    """Queue and send every reminder due on ``on`` not sent before; {kind: messages written now}.

    A chunk at a time, each in its own transaction (``messages_queue_kinds``'; the sweep's steps may
    commit as they go): a run stopped half-way keeps what it wrote, and run again writes the rest
    only. Each chunk's messages are sent by one task, queued when the chunk commits."""
    require_role(acting_user, MESSAGE_MANAGERS, "Only the FOG Manager and the Billing Clerk send reminders.")
    counts = {kind: 0 for kind in Kind.values if kind not in (Kind.PERMIT_NOTICE, Kind.INVITATION)}
    chunks = reminder_chunks(on=on, chunk_size=chunk_size)
    while True:
        # A chunk's objects are freed by their reference counts as it goes; the collector's full
        # passes would walk Django's whole heap (core.collector). Paused a chunk at a time, so any
        # cycles it leaves are collected before the next.
        with collector_paused():
            drafts = next(chunks, None)
            if drafts is None:
                return counts
            for kind in messages_queue_kinds(acting_user=acting_user, drafts=drafts, on=on):
                counts[kind] += 1
