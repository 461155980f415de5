"""L5: the revoked permits an application's business is associated with, for the reviewer.

Chapter 10.02 L5: "Any future application for a FOG Permit at any location within the Town made by
any person associated with an order of suspension or revocation may be denied by the Town after
fully reviewing the records". Only a person decides: the review page and the API show a warning
naming each revoked permit, the order that revoked it and L5, and the reviewer may deny under L5.

Association, from what the registry records (``rules.enforcement.l5_associations``): the same
establishment (its business licence number is unique), the same operator Party, or the same business
name at another licence. A permit counts when a suspension or revocation order (L1-L6) was applied to
it and revoked it."""

from __future__ import annotations

import dataclasses
import datetime as dt

from django.db.models import Q

from fogcontrol.permits.models import PermitApplication, PermitOrder, PermitStatus
from fogcontrol.rules.enforcement import Business, l5_associations

L_ORDERS = (PermitOrder.Kind.SUSPENSION, PermitOrder.Kind.REVOCATION)


@dataclasses.dataclass(frozen=True)
class L5Warning:
    permit_id: int
    permit_number: str
    establishment: str
    order_id: int
    order_reference: str
    revoked_on: dt.date
    associations: tuple[str, ...]
    provision: str = "L5"

    @property
    def text(self) -> str:
        return (
            f"L5: permit {self.permit_number} of {self.establishment} was revoked by order {self.order_reference} "
            f"on {self.revoked_on:%B %-d, %Y}; this application has {' and '.join(self.associations)}. "
            "The application may be denied under L5 after reviewing that permit's records."
        )

    def as_dict(self) -> dict:
        return {
            "provision": self.provision,
            "permit": self.permit_id,
            "permit_number": self.permit_number,
            "order": self.order_id,
            "order_reference": self.order_reference,
            "revoked_on": self.revoked_on,
            "associations": list(self.associations),
            "text": self.text,
        }


def _business(establishment) -> Business:
    operator = establishment.operator
    return Business(establishment_id=establishment.pk, licence_number=establishment.licence_number,
                    business_name=establishment.business_name, operator_id=establishment.operator_id,
                    operator_name=operator.name if operator else "")  # fmt: skip


def l5_warnings(application: PermitApplication) -> list[L5Warning]:
    """L5: one warning per revoked permit the application's business is associated with (one query)."""
    establishment = application.establishment
    match = Q(permit__establishment_id=establishment.pk) | Q(
        permit__establishment__business_name__iexact=establishment.business_name.strip()
    )
    if establishment.operator_id:
        match |= Q(permit__establishment__operator_id=establishment.operator_id)
    orders = (
        PermitOrder.objects.filter(match, kind__in=L_ORDERS, applied_on__isnull=False,
                                   permit__status=PermitStatus.REVOKED)
        .select_related("permit__establishment__operator")
        .order_by("applied_on", "pk")
    )  # fmt: skip
    applicant = _business(establishment)
    warnings = []
    for order in orders:
        if order.action != "revoke":
            continue
        links = l5_associations(applicant, _business(order.permit.establishment))
        if links:
            warnings.append(
                L5Warning(permit_id=order.permit_id, permit_number=order.permit.number,
                          establishment=order.permit.establishment.business_name, order_id=order.pk,
                          order_reference=order.reference, revoked_on=order.applied_on, associations=tuple(links))
            )  # fmt: skip
    return warnings
