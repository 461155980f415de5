"""A permit's life after issue: suspension, reinstatement, revocation by a recorded order (L1-L6,
M1-M3) and expiry (B6), and the daily run that applies due B7 changes and expires lapsed permits.

A permit is never suspended or revoked in one click: each change of state applies a `PermitOrder`
that records the chapter's process (orders.py). Without one the service refuses, naming the
provisions.
"""

from __future__ import annotations

import datetime as dt
import functools

from django.db import connection, transaction
from django.utils import timezone

from fogcontrol.audit.services import snapshot
from fogcontrol.audit.set_sql import audit_insert_select
from fogcontrol.core.actors import actor_label_for, person
from fogcontrol.permits.models import (
    Permit,
    PermitEvent,
    PermitModification,
    PermitNotice,
    PermitOrder,
    PermitStatus,
)
from fogcontrol.permits.services.common import audited_save, require_fog_manager
from fogcontrol.permits.services.notice_wordings import order_applied_wording
from fogcontrol.permits.services.notices import notice_send
from fogcontrol.permits.services.orders import FINAL_APPEAL_STATUSES
from fogcontrol.permits.services.permit_modifications import permit_modifications_apply_due
from fogcontrol.permits.services.permit_versions import move_permit, withdraw_modification
from fogcontrol.permits.states import TransitionNotAllowed, check_permit_transition
from fogcontrol.program.selectors import ruleset_on, town_today
from fogcontrol.rules.explain import fmt_date

# --- Suspension, revocation, reinstatement by order ----------------------------------------


def order_required(action: str, ruleset) -> str:
    """Why a permit is not suspended, revoked or reinstated in one step, with the ruleset's numbers."""
    process = (
        "Chapter 10.02 requires written notice of the facts and grounds by certified mail and a hearing "
        f"{ruleset.revocation_hearing_min_days} to {ruleset.revocation_hearing_max_days} days after mailing "
        f"(L1, L2), a written decision within {ruleset.hearing_decision_days} days after the hearing (L3, L4), "
    )
    if action == "suspend":
        return (
            f"A permit is not suspended in one step. {process}final unless appealed to the Town Council (L6); "
            f"or an emergency suspension order with its hearing within {ruleset.emergency_hearing_business_days} "
            "business days (M1, M3). Record the order with that process, then apply it."
        )
    if action == "revoke":
        return (
            f"A permit is not revoked in one step. {process}and a final order, not appealed or upheld by the "
            "Town Council (L5, L6). Record the revocation order with that process, then apply it."
        )
    return (
        "A suspended permit is reinstated by a recorded reinstatement order that names the suspension order "
        "it ends (L5, M3). Record it, then apply it."
    )


ACTION_WORDS = {"suspend": "suspend", "revoke": "revoke", "reinstate": "reinstate"}


def _check_order(permit: Permit, order: PermitOrder | None, action: str) -> PermitOrder:
    """The order must be recorded for this permit, call for this change, and be ready to apply."""
    if order is None:
        raise TransitionNotAllowed(order_required(action, ruleset_on(town_today())))
    order = PermitOrder.objects.select_for_update().get(pk=order.pk)
    if order.permit_id != permit.pk:
        raise TransitionNotAllowed(f"Order {order.reference} is for another permit.")
    if order.applied_on is not None:
        raise TransitionNotAllowed(
            f"Order {order.reference} was applied on {fmt_date(order.applied_on)} already."
        )
    if order.is_process_order:
        if order.decision_on is None:
            raise TransitionNotAllowed(
                f"Order {order.reference} has no written decision yet: the hearing officer's decision and order "
                "(L3, L4) is recorded first."
            )
        if (
            order.appeal_status not in FINAL_APPEAL_STATUSES
            or order.final_on is None
            or order.final_on > town_today()
        ):
            raise TransitionNotAllowed(
                f"Order {order.reference} is not final ({order.get_appeal_status_display().lower()}): a "
                "suspension or revocation takes effect upon final order, when it is not appealed to the "
                "Town Council or is upheld (L5, L6). Record the appeal's outcome first."
            )
    if order.action != action:
        does = f"it would {order.action} the permit" if order.action else "its decision orders no change"
        raise TransitionNotAllowed(
            f"Order {order.reference} ({order.get_kind_display()}) cannot {ACTION_WORDS[action]} the permit: {does}."
        )
    return order


def _apply(
    permit, target, *, acting_user, action, order: PermitOrder | None, words: str, reason: str
) -> Permit:
    require_fog_manager(acting_user, "apply suspension, revocation and reinstatement orders")
    permit = Permit.objects.select_for_update().get(pk=permit.pk)
    # The permit's own state first (a revoked or replaced permit says so), then the order.
    check_permit_transition(permit.status, target)
    order = _check_order(permit, order, words)
    today = town_today()
    summary = f"{order.reference} ({order.get_kind_display()}): {order.decision or order.facts}"
    if reason and reason.strip():
        summary += f" — {reason.strip()}"
    before = snapshot(permit)
    move_permit(permit, target, acting_user=acting_user, action=action, note=summary)
    permit.status_reason = summary
    audited_save(permit, acting_user=acting_user, action=action, before=before)
    order_before = snapshot(order)
    order.applied_on = today
    order.applied_at = timezone.now()
    order.applied_by = person(acting_user)
    order.applied_by_label = actor_label_for(acting_user)
    audited_save(order, acting_user=acting_user, action="permit.order.apply", before=order_before)
    notice_send(
        acting_user=acting_user,
        establishment=permit.establishment,
        kind=PermitNotice.Kind.ORDER,
        wording=functools.partial(
            order_applied_wording, permit=permit, order=order, target=target, day=today
        ),
        sent_on=today,
        permit=permit,
    )
    return permit


@transaction.atomic
def permit_suspend(
    *, permit: Permit, acting_user, order: PermitOrder | None = None, reason: str = ""
) -> Permit:
    """L5, M1: the permit is suspended by a recorded order: a final suspension order (L1-L6), a
    temporary suspension ordered by the hearing officer (L3), or an emergency order (M1; its hearing
    does not stay it, M3). Without one: refused, naming the provisions."""
    return _apply(permit, PermitStatus.SUSPENDED, acting_user=acting_user, action="permit.suspend",
                  order=order, words="suspend", reason=reason)  # fmt: skip


@transaction.atomic
def permit_reinstate(
    *, permit: Permit, acting_user, order: PermitOrder | None = None, reason: str = ""
) -> Permit:
    """The suspension ends by a recorded reinstatement order: the permit is in force again (if its term
    has not ended). A revoked permit is never reinstated (L5)."""
    permit = Permit.objects.get(pk=permit.pk)
    if permit.status != PermitStatus.SUSPENDED:
        raise TransitionNotAllowed("Only a suspended permit can be reinstated.")
    target = PermitStatus.ISSUED if permit.valid_until >= town_today() else PermitStatus.EXPIRED
    return _apply(permit, target, acting_user=acting_user, action="permit.reinstate", order=order,
                  words="reinstate", reason=reason)  # fmt: skip


@transaction.atomic
def permit_revoke(
    *, permit: Permit, acting_user, order: PermitOrder | None = None, reason: str = ""
) -> Permit:
    """L5: revoked by a final order (L1-L6); discharge stops until a new permit is applied for and issued."""
    permit = _apply(permit, PermitStatus.REVOKED, acting_user=acting_user, action="permit.revoke",
                    order=order, words="revoke", reason=reason)  # fmt: skip
    for pending in permit.modifications.filter(status=PermitModification.Status.NOTIFIED):
        withdraw_modification(pending, acting_user=acting_user, reason="The permit was revoked.")
    return permit


# Lapsed permits expired together, by the database: per batch one SELECT of their ids (locked), one
# INSERT … SELECT of audit entries (each permit's before and after built in SQL), one of timeline
# events and one UPDATE, so the step's queries do not grow with the permits it expires and no
# permit is loaded into Python (issue 16).
EXPIRE_BATCH = 1000


def _expire_sql(ids: list[int], *, now, acting_user) -> None:
    """B6: the permits ``ids`` (issued, locked) expire: their audit entries, events and UPDATE."""
    text = "CAST(%s AS TEXT)"
    audit_insert_select(
        acting_user=acting_user,
        action="permit.expire",
        model=Permit,
        ids=ids,
        after={"status": (text, [PermitStatus.EXPIRED]), "updated_at": (text, [now.isoformat()])},
        object_repr=("'FOG permit ' || COALESCE(NULLIF(t.number, ''), '(unnumbered)')", []),
    )
    actor = person(acting_user)
    valid_until = (
        "to_char(p.valid_until, 'YYYY-MM-DD')" if connection.vendor == "postgresql" else "p.valid_until"
    )
    event_at = PermitEvent._meta.get_field("at").get_db_prep_save(now, connection)
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO permits_permitevent (at, actor_id, actor_label, application_id, permit_id, action, "  # nosec B608: fixed names, values are parameters
            "from_status, to_status, note) "
            f"SELECT %s, %s, %s, NULL, p.id, %s, %s, %s, 'Not renewed by ' || {valid_until} || ' (B6)' "
            f"FROM permits_permit p WHERE p.id IN ({', '.join(['%s'] * len(ids))}) ORDER BY p.id",
            [event_at, actor.pk if actor else None, actor_label_for(acting_user), "permit.expire",
             PermitStatus.ISSUED, PermitStatus.EXPIRED, *ids],
        )  # fmt: skip
    Permit.objects.filter(pk__in=ids).update(status=PermitStatus.EXPIRED, updated_at=now)


def _expire_batches(*, on: dt.date, acting_user, instances: bool = False):
    """B6, set-based: yield each batch of permits expired (issued, last day of term before ``on``):
    their ids, or with ``instances`` the permits themselves as they are after."""
    check_permit_transition(PermitStatus.ISSUED, PermitStatus.EXPIRED)
    lapsed = (
        Permit.objects.filter(status=PermitStatus.ISSUED, valid_until__lt=on)
        .order_by("pk")
        .select_for_update()
    )
    while True:  # expired rows leave `lapsed`
        batch = list(
            lapsed[:EXPIRE_BATCH] if instances else lapsed.values_list("pk", flat=True)[:EXPIRE_BATCH]
        )
        if not batch:
            return
        now = timezone.now()
        _expire_sql([permit.pk for permit in batch] if instances else batch, now=now, acting_user=acting_user)
        for permit in batch if instances else ():
            permit.status, permit.updated_at = PermitStatus.EXPIRED, now
        yield batch
        if len(batch) < EXPIRE_BATCH:
            return


@transaction.atomic
def permits_expire_lapsed(*, on: dt.date, acting_user="permits_daily") -> list[Permit]:
    """B6: a permit not renewed by the last day of its term has expired from the day after.

    Set-based: each batch in one UPDATE, with its timeline events and audit entries in bulk."""
    batches = _expire_batches(on=on, acting_user=acting_user, instances=True)
    return [permit for batch in batches for permit in batch]


def permits_daily(*, on: dt.date | None = None, acting_user="permits_daily") -> dict[str, int]:
    """The daily run: changes that take effect today are applied first, then lapsed permits expire."""
    on = on or town_today()
    applied = permit_modifications_apply_due(on=on, acting_user=acting_user)
    with transaction.atomic():  # counted, not kept: memory stays flat however many expire
        expired = sum(len(batch) for batch in _expire_batches(on=on, acting_user=acting_user))
    return {"modifications_applied": len(applied), "permits_expired": expired}
