"""Who is told of a change of a device's service frequency, and the notices they get (B7, A2, A3).

The notice goes to the party responsible for the device (A2): for a device serving one FSE, that
FSE (A3); for a device shared by several FSEs on one parcel, the property owner or the owner's
official designee. Every permittee whose permit states the device's frequency is told as well
(B7). Each by the contact on record (an e-mail, a mailing address); with none, the change is
refused and the message says whose contact to add. The notices are the permits app's
(`permits.services.notices.notice_send`): one mechanism, emailed and printable.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from fogcontrol.permits.models import Permit, PermitModification, PermitNotice
from fogcontrol.permits.services.notices import (
    notice_day,
    notice_send,
    party_has_contact,
    permittee_has_contact,
)
from fogcontrol.permits.services.permit_modifications import permits_stating_frequency_of
from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice, Party
from fogcontrol.registry.selectors import notice_recipient_for, responsibility_for
from fogcontrol.rules.responsibility import PROPERTY_OWNER

# The key a refusal is filed under: not a field of the request, but what the FOG Manager must fix.
CONTACT_FIELD = "responsible_party"


@dataclasses.dataclass
class Recipient:
    """One addressee: an establishment (the permittee, or the FSE responsible under A3) or a party
    (the property owner or designee, A2), with the permit the notice concerns, if any."""

    why: str
    establishment: FoodServiceEstablishment | None = None
    party: Party | None = None
    permit: Permit | None = None


def _owner_words(device: GreaseControlDevice, party: Party) -> str:
    parcel = device.parcel or next((fse.parcel for fse in device.establishments.all() if fse.parcel_id), None)
    if parcel is None:
        return party.name
    role = "official designee of the owner" if parcel.owner_designee_id == party.pk else "owner"
    return f"{party.name}, {role} of parcel {parcel.apn}"


def frequency_notice_recipients(device: GreaseControlDevice) -> list[Recipient]:
    """A2, A3, B7: who is told of a change of this device's frequency. Refused (ValidationError) when
    the responsible party or a permittee has no e-mail or mailing address on record."""
    device = (
        GreaseControlDevice.objects.select_related("parcel__owner", "parcel__owner_designee")
        .prefetch_related(
            "establishments__parcel__owner",
            "establishments__parcel__owner_designee",
            "establishments__operator",
            "establishments__contact",
            "establishments__users",
        )  # fmt: skip
        .get(pk=device.pk)
    )
    responsibility = responsibility_for(device)
    permits = list(permits_stating_frequency_of(device).prefetch_related("establishment__users"))
    recipients: list[Recipient] = []
    if responsibility.responsible == PROPERTY_OWNER:
        party = notice_recipient_for(device, responsibility)
        served = ", ".join(fse.business_name for fse in device.establishments.all()) or "no FSE on record"
        if party is None:
            raise ValidationError(
                {
                    CONTACT_FIELD: [
                        f"A2: device {device.identifier} serves {served}; its property owner (or the owner's "
                        "designee) is responsible and must be told, but no owner is on record for its parcel. "
                        "Add the parcel and its owner, with an e-mail or mailing address, in the registry."
                    ]
                }
            )
        if not party_has_contact(party):
            raise ValidationError(
                {
                    CONTACT_FIELD: [
                        f"A2: the notice goes to {_owner_words(device, party)}, responsible for device "
                        f"{device.identifier} (shared by {served}), but no e-mail or mailing address is on "
                        f"record for {party.name}. Add one in the registry, then propose the change again."
                    ]
                }
            )
        recipients.append(Recipient(why="owner", party=party))
    else:
        fse = notice_recipient_for(device, responsibility)
        recipients.append(Recipient(why="fse", establishment=fse, permit=_permit_of(permits, fse)))
    for permit in permits:
        if not any(r.establishment and r.establishment.pk == permit.establishment_id for r in recipients):
            recipients.append(Recipient(why="permittee", establishment=permit.establishment, permit=permit))
    for recipient in recipients:
        fse = recipient.establishment
        if fse is not None and not permittee_has_contact(fse):
            provision = "A3" if recipient.why == "fse" else "B7"
            holder = f", holder of permit {recipient.permit.number}" if recipient.permit else ""
            raise ValidationError(
                {
                    CONTACT_FIELD: [
                        f"{provision}: the notice goes to {fse.business_name}{holder}, but no e-mail or mailing "
                        f"address is on record for it. Add an e-mail or mailing address for its operator or "
                        "contact in the registry, then propose the change again."
                    ]
                }
            )
    return recipients


def _permit_of(permits: list[Permit], fse) -> Permit | None:
    return next((permit for permit in permits if fse is not None and permit.establishment_id == fse.pk), None)


def _intro(recipient: Recipient, device: GreaseControlDevice) -> str:
    if recipient.why == "owner":
        served = ", ".join(fse.business_name for fse in device.establishments.all())
        return _(
            "You receive this notice as the party responsible for grease control device %(device)s, "
            "which serves several food service establishments on your parcel (%(served)s) (Chapter 10.02, A2)."
        ) % {"device": device.identifier, "served": served}
    if recipient.permit is not None:
        return _("FOG permit %(number)s states this device's service frequency.") % {
            "number": recipient.permit.number
        }
    return _("%(business)s operates and maintains this device (Chapter 10.02, A3).") % {
        "business": recipient.establishment.business_name
    }


def _change_notice(change, recipient: Recipient, *, notice_days: int, replaced) -> tuple[str, str]:
    """B7: the notice of a proposed change of frequency to one recipient, in the active language
    (the reason staff typed stays as written)."""
    device = change.device
    values = {"device": device.identifier, "kind": device.get_kind_display().lower(), "to": change.to_days,
              "reason": change.reason, "day": notice_day(change.effective_on), "days": notice_days}  # fmt: skip
    values["before"] = (
        _("every %(days)s days") % {"days": change.from_days}
        if change.from_days
        else _("the default frequency (E2)")
    )
    body = (
        _(
            "The Town proposes to change the service frequency of grease control device %(device)s (%(kind)s) "
            "from %(before)s to every %(to)s days.\n\nReason: %(reason)s\n\nThe change takes effect on "
            "%(day)s, no sooner than %(days)s days after this notice (Chapter 10.02, B7)."
        )
        % values
    )
    if replaced is not None:
        body += "\n\n" + _(
            "This replaces the change proposed on %(notice)s (every %(to)s days from %(day)s), which is withdrawn."
        ) % {
            "notice": notice_day(replaced.notice_date),
            "to": replaced.to_days,
            "day": notice_day(replaced.effective_on),
        }
    body += "\n\n" + _intro(recipient, device)
    if recipient.permit is not None:
        body += "\n\n" + _("Permit %(number)s will be reissued with the new frequency on that date.") % {
            "number": recipient.permit.number
        }
    subject = _("Grease control device %(device)s: proposed change of service frequency") % values
    return subject, body


def _withdrawal_notice(change, *, reason: str) -> tuple[str, str]:
    """B7: the notice that a proposed change is withdrawn, in the active language."""
    values = {"device": change.device.identifier, "to": change.to_days, "day": notice_day(change.effective_on),
              "notice": notice_day(change.notice_date), "reason": reason}  # fmt: skip
    subject = _("Grease control device %(device)s: proposed change withdrawn") % values
    body = (
        _(
            "The change of service frequency to every %(to)s days from %(day)s, of which you were told on "
            "%(notice)s, is withdrawn. Reason: %(reason)s\n\nThe device keeps its current frequency."
        )
        % values
    )
    return subject, body


def frequency_notices_send(
    *,
    change,
    recipients: list[Recipient],
    acting_user,
    notice_days: int,
    modifications: list[PermitModification],
    replaced=None,
) -> list[PermitNotice]:
    """B7: tell every recipient of a proposed change, on the notice date; a replaced proposal is named.
    Each notice is written in English and Spanish (issue 18)."""
    device = change.device
    by_permit = {modification.permit_id: modification for modification in modifications}
    notices = []
    for recipient in recipients:
        permit = recipient.permit
        notices.append(
            notice_send(
                acting_user=acting_user,
                establishment=recipient.establishment,
                party=recipient.party,
                device=device,
                permit=permit,
                modification=by_permit.get(permit.pk) if permit else None,
                kind=PermitNotice.Kind.FREQUENCY_CHANGE,
                wording=functools.partial(
                    _change_notice, change, recipient, notice_days=notice_days, replaced=replaced
                ),
                sent_on=change.notice_date,
                mailing_record=change.mailing_record,
            )
        )
    return notices


def frequency_withdrawal_notices_send(
    *, change, acting_user, reason: str, today: dt.date
) -> list[PermitNotice]:
    """B7: a withdrawn proposal is withdrawn in writing, to everyone who was told of it."""
    notices = []
    for told in change.notices.select_related("establishment", "party", "permit"):
        notices.append(
            notice_send(
                acting_user=acting_user,
                establishment=told.establishment,
                party=told.party,
                device=change.device,
                permit=told.permit,
                kind=PermitNotice.Kind.FREQUENCY_CHANGE,
                wording=functools.partial(_withdrawal_notice, change, reason=reason),
                sent_on=today,
            )
        )
    return notices
