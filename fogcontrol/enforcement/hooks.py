"""Enforcement listens to the apps below it (connected in ``apps.py``): a manifest flag referred for
enforcement opens its violation at once, in the review's own transaction (F4, F7). The nightly sweep
picks up any referred flag this missed (one violation per flag either way: ``source_key``).

A letter of enforcement's served later through notices (``document_served``: the certified or
registered mail run's mail log) sets the dates that run from service, in the same transaction:
L2's hearing window from the suspension notice's mailing, P5's hearing limit from the complaint's,
P8's appeal window (P6) from the penalty order's. A refusal (the hearing set no longer fits the
window) refuses the mail log's row, naming the provision."""

from __future__ import annotations

from fogcontrol.core.actors import person
from fogcontrol.enforcement.models import AdministrativeComplaint, Hearing, PenaltyOrder
from fogcontrol.enforcement.services.complaints import complaint_served
from fogcontrol.enforcement.services.penalties import penalty_order_served
from fogcontrol.enforcement.services.sources import from_referred_flag
from fogcontrol.enforcement.services.suspensions import suspension_notice_mailed
from fogcontrol.enforcement.services.sweep import violations_open_bulk


def on_flag_referred(sender, *, flag, acting_user, **kwargs) -> None:
    violation = from_referred_flag(flag)
    if violation is None:
        return
    violation.opened_by = person(acting_user)
    violations_open_bulk(
        violations=[violation], acting_user=acting_user, note="A manifest flag was referred for enforcement."
    )


def on_document_served(sender, *, document, service, acting_user, **kwargs) -> None:
    if service.served_on is None or document.subject_id is None:
        return
    day, article = service.served_on, service.article_number
    if document.key == "enforcement_suspension_notice":
        hearing = Hearing.objects.filter(pk=document.subject_id, kind=Hearing.Kind.SUSPENSION).first()
        if hearing is not None:
            suspension_notice_mailed(
                acting_user=acting_user, hearing=hearing, mailed_on=day, article_number=article
            )
    elif document.key == "enforcement_complaint":
        complaint = AdministrativeComplaint.objects.filter(pk=document.subject_id).first()
        if complaint is not None:
            complaint_served(
                acting_user=acting_user, complaint=complaint, served_on=day, article_number=article
            )
    elif document.key == "enforcement_penalty_order":
        order = PenaltyOrder.objects.filter(pk=document.subject_id).first()
        if order is not None:
            penalty_order_served(acting_user=acting_user, order=order, served_on=day, article_number=article)
