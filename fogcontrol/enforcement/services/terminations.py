"""Termination of sewer service (O1) and its reinstatement, with the costs owed by the discharger
(O2): on a suspension or revocation order applied to the permit, or for an unpermitted discharger
that did not stop after a served notice. Each cost is a ``ServiceCost`` row billing picks up."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_noop

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.core.roles import Role
from fogcontrol.enforcement import documents_orders as documents
from fogcontrol.enforcement.documents import words
from fogcontrol.enforcement.models import Case, NoticeOfViolation, ServiceCost, ServiceTermination
from fogcontrol.enforcement.services.hearings import stamp
from fogcontrol.permits.models import Permit, PermitOrder, PermitStatus
from fogcontrol.program.selectors import town_today
from fogcontrol.rules.explain import fmt_date

MANAGER_ONLY = "Only the FOG Manager terminates or reinstates sewer service."


def _cost(termination, *, kind, amount, on, description, owed_by) -> ServiceCost | None:
    if amount is None:
        return None
    if amount < 0:
        raise ValidationError({"cost": "Give the cost, zero or more."})
    return ServiceCost.objects.create(
        termination=termination, kind=kind, amount=amount, incurred_on=on,
        description=description or ServiceCost.Kind(kind).label, owed_by=owed_by,
    )  # fmt: skip


@transaction.atomic
def service_terminate(
    *,
    acting_user,
    case: Case,
    terminated_on: dt.date,
    how: str,
    permit_order: PermitOrder | None = None,
    notice: NoticeOfViolation | None = None,
    cost: Decimal | None = None,
    owed_by: str = "",
) -> ServiceTermination:
    """O1: terminate service on an applied suspension or revocation order of the FSE's permit, or (no
    permit in force) after a notice of violation served and its correction date passed. O2: the
    disconnection cost is owed by ``owed_by``."""
    require_role(acting_user, {Role.FOG_MANAGER}, MANAGER_ONLY)
    case = Case.objects.select_for_update(of=("self",)).select_related("establishment").get(pk=case.pk)
    errors: dict[str, str] = {}
    if terminated_on is None or terminated_on > town_today():
        errors["terminated_on"] = "Give the date service was terminated, today or earlier."
    if not (how or "").strip():
        errors["how"] = "Say how service was stopped."
    if cost is not None and not (owed_by or "").strip():
        errors["owed_by"] = "O2: name the owner, operator or permittee who pays."
    if errors:
        raise ValidationError(errors)
    if permit_order is not None:
        order = PermitOrder.objects.select_related("permit").get(pk=permit_order.pk)
        if order.permit.establishment_id != case.establishment_id:
            raise ValidationError({"permit_order": "Choose an order on this establishment's permit."})
        if order.applied_on is None or order.action not in ("suspend", "revoke"):
            raise StateConflict(
                f"O1: order {order.reference} has not suspended or revoked the permit: service is terminated on "
                "a suspension or revocation order in effect."
            )
        basis, basis_text = (
            ServiceTermination.Basis.ORDER,
            words(
                gettext_noop("order %(reference)s (%(kind)s)"),
                reference=order.reference,
                kind=documents.ORDER_KIND_NAMES[order.kind],
            ),  # fmt: skip
        )
    elif notice is not None:
        notice = NoticeOfViolation.objects.get(pk=notice.pk, case=case)
        if Permit.objects.filter(establishment=case.establishment, status=PermitStatus.ISSUED).exists():
            raise StateConflict(
                "O1: the establishment holds a permit: terminate on a suspension or revocation order."
            )
        if terminated_on <= notice.correct_by:
            raise StateConflict(
                f"O1: the notice of {fmt_date(notice.issued_on)} gave until {fmt_date(notice.correct_by)} to stop: "
                "service is terminated only after that."
            )
        basis, basis_text = (
            ServiceTermination.Basis.UNPERMITTED,
            words(
                gettext_noop("discharging without a permit after the notice of %(day)s"), day=notice.issued_on
            ),
        )
        order = None
    else:
        raise ValidationError(
            {"permit_order": "O1: name the suspension or revocation order, or the notice not heeded."}
        )
    termination = ServiceTermination(
        case=case,
        basis=basis,
        permit_order=order,
        notice=notice,
        terminated_on=terminated_on,
        how=how.strip(),
    )
    stamp(termination, acting_user)
    termination.save()
    _cost(termination, kind=ServiceCost.Kind.DISCONNECTION, amount=cost, on=terminated_on, description="",
          owed_by=(owed_by or "").strip())  # fmt: skip
    document = documents.issue(
        acting_user=acting_user,
        key="enforcement_termination_notice",
        case=case,
        context={"terminated_on": terminated_on, "basis": basis_text, "how": termination.how},
        subject=termination,
        service_method="personal_delivery",
        served_on=terminated_on,
        issued_on=terminated_on,
    )
    termination.document_id = document.pk
    termination.save(update_fields=["document_id"])
    audit_record(
        acting_user=acting_user, action="service.terminate", instance=termination, after=snapshot(termination)
    )
    return termination


@transaction.atomic
def service_reinstate(
    *,
    acting_user,
    termination: ServiceTermination,
    reinstated_on: dt.date,
    cost: Decimal | None,
    owed_by: str,
) -> ServiceTermination:
    """O2: service reinstated; its cost is owed by the discharger (a ``ServiceCost`` for billing)."""
    require_role(acting_user, {Role.FOG_MANAGER}, MANAGER_ONLY)
    termination = ServiceTermination.objects.select_for_update(of=("self",)).get(pk=termination.pk)
    if termination.reinstated_on:
        raise StateConflict(f"Service was reinstated on {fmt_date(termination.reinstated_on)}.")
    if reinstated_on is None or reinstated_on < termination.terminated_on or reinstated_on > town_today():
        raise ValidationError(
            {"reinstated_on": "Give the date of reinstatement: after termination, today or earlier."}
        )
    if cost is not None and not (owed_by or "").strip():
        raise ValidationError({"owed_by": "O2: name the owner, operator or permittee who pays."})
    before = snapshot(termination)
    termination.reinstated_on = reinstated_on
    termination.save(update_fields=["reinstated_on"])
    _cost(termination, kind=ServiceCost.Kind.REINSTATEMENT, amount=cost, on=reinstated_on, description="",
          owed_by=(owed_by or "").strip())  # fmt: skip
    audit_record(acting_user=acting_user, action="service.reinstate", instance=termination, before=before,
                 after=snapshot(termination))  # fmt: skip
    return termination
