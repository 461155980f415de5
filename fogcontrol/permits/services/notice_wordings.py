"""The wording of the notices of issue (B5), information requested (B3), rejection (B4, B5) and
orders (L1-L6, M1-M3), in the active language (issue 18).

Each function returns (subject, body) and is given to ``notice_send(wording=)`` (with
``functools.partial``), which calls it once under each language. The English is the text the
notices always had, byte-identical; numbers and dates are placeholders, dates said with
``notice_day``; what staff typed (a message, reasons, an order's decision or a condition) is quoted as
written.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from fogcontrol.core.working import said
from fogcontrol.permits.models import PermitStatus
from fogcontrol.permits.services.notices import notice_day


def permit_issued_wording(
    *, number: str, business: str, licence: str, valid_until, frequency, renewed: bool,
    condition: str = "", compliance_date=None,
) -> tuple[str, str]:  # fmt: skip
    """B5: the permit is issued (or renewed, B6), its term, frequency (E1) and any condition (A4, A5)."""
    values = {"number": number, "business": business, "licence": licence,
              "until": notice_day(valid_until), "frequency": frequency}  # fmt: skip
    if renewed:
        subject = _("FOG permit %(number)s renewed") % values
        opening = _("FOG permit %(number)s has been renewed to %(business)s.") % values
    else:
        subject = _("FOG permit %(number)s issued") % values
        opening = _("FOG permit %(number)s has been issued to %(business)s.") % values
    body = (
        opening
        + " "
        + _("It is valid until %(until)s, renewed with business licence %(licence)s (B6).") % values
        + " "
        + _("The grease control device must be serviced at least every %(frequency)s days (E1).") % values
        + " "
    )
    if condition:
        body += (
            _("Condition on the device (A4, A5): %(condition)s Comply by %(date)s.")
            % {"condition": condition, "date": notice_day(compliance_date)}
            + " "
        )
    body += _("Download the permit from the FOG permit portal and keep it on the premises.")
    return subject, body


def information_requested_wording(*, reference: str, business: str, message: str) -> tuple[str, str]:
    """B3: the FOG Manager asks for more information; the request is quoted as written."""
    values = {"reference": reference, "business": business, "message": message}
    subject = _("FOG permit application %(reference)s: information requested") % values
    body = (
        _(
            "The FOG Manager needs more information to evaluate application %(reference)s for %(business)s "
            "(Chapter 10.02, B3):\n\n%(message)s\n\nPlease answer through the FOG permit portal."
        )
        % values
    )
    return subject, body


def l5_denial_wording(warnings) -> str:
    """L5: the reasons an application is denied, naming the revoked permits and orders it is
    associated with (the associations said in the active language)."""
    return (
        _("Denied under L5 (Chapter 10.02):")
        + " "
        + " ".join(
            _("associated with permit %(permit)s, revoked by order %(order)s (%(associations)s).")
            % {
                "permit": w.permit_number,
                "order": w.order_reference,
                "associations": ", ".join(said(a) for a in w.associations),
            }
            for w in warnings
        )
    )


def application_rejected_wording(
    *, reference: str, business: str, reasons: str, warnings=()
) -> tuple[str, str]:
    """The application is rejected, with the reasons (L5's denial first, when given)."""
    if warnings:
        reasons = l5_denial_wording(warnings) + "\n\n" + reasons
    values = {"reference": reference, "business": business, "reasons": reasons}
    subject = _("FOG permit application %(reference)s: rejected") % values
    body = (
        _(
            "Application %(reference)s for %(business)s has been rejected for these reasons:\n\n%(reasons)s\n\n"
            "You may submit a new application. Every FSE must hold a FOG Permit (Chapter 10.02, B1)."
        )
        % values
    )
    return subject, body


def order_applied_wording(*, permit, order, target: str, day) -> tuple[str, str]:
    """L5, M1: the permit is suspended, revoked or reinstated by a recorded order; the order's
    decision (or facts) is quoted as written."""
    values = {
        "number": permit.number,
        "order": order.reference,
        "kind": order.get_kind_display(),
        "business": permit.establishment.business_name,
        "status": str(permit.get_status_display()).lower(),
        "day": notice_day(day),
    }
    subject = _("FOG permit %(number)s: %(status)s by order %(order)s") % values
    body = (
        _("By order %(order)s (%(kind)s), FOG permit %(number)s of %(business)s is %(status)s from %(day)s.")
        % values
    )
    body += " "
    if target == PermitStatus.SUSPENDED:
        body += _(
            "No wastewater containing FOG may be discharged to the public sewer while it is suspended (L5, M1)."
        )
        body += " "
    elif target == PermitStatus.REVOKED:
        body += _(
            "No wastewater containing FOG may be discharged until a new permit is applied for and approved (L5)."
        )
        body += " "
    return subject, body + f"{order.decision or order.facts}"
