"""Issue 18: a statement's lines and an invoice's charges in the reader's language (Q1, P12).

The ledger keeps its descriptions as written when each entry was posted: the English of record,
never changed (``LedgerEntry`` is immutable) and never stored translated. A page or a document
shows them through ``entry_text`` and ``charge_text``, in the active language:

- what the program wrote is written again in that language: a payment, a refund, penalty monies
  to the penalty account (P12), a cancellation and a write-off from the entry's kind and the
  records it links (its payment, its invoice; loaded with the statement, no query more), and a
  charge a producer billed (a permit fee, a D6 compliance charge, a penalty order, an O2 or N1/N2
  cost) by reading its English of record against the wording of its source (``sources.py``): its
  labels through the catalogues, its dates in the language's long form;
- what staff typed stays as written: a charge entered by hand, a fee's own description, a reason,
  a payment's reference, a name; so does any text the wording below does not recognise.

In English every line is the stored text, unchanged.
"""

from __future__ import annotations

import datetime as dt
import re

from django.utils.formats import date_format
from django.utils.translation import get_language, gettext, gettext_noop
from django.utils.translation import gettext as _

from fogcontrol.billing.models import LedgerEntry
from fogcontrol.billing.sources import DIRECT

# Words of the sources' English the catalogues hold for this page only (the units of D6's charges,
# the I2 debtor the spills app keeps untranslated).
gettext_noop("hours")
gettext_noop("samples")
gettext_noop("tests")
gettext_noop("Responsible individual of the FSE")

_DAY = r"(?P<day>\w+, \w+ \d{1,2}, \d{4})"


def _label(text: str) -> str:
    """A label the program wrote (a choice's English), in the active language."""
    return gettext(text)


def _lower_label(text: str) -> str:
    """A label written in lower case ("follow-up inspection"), in the active language."""
    translated = gettext(text[:1].upper() + text[1:])
    return translated[:1].lower() + translated[1:]


def _day(text: str) -> str:
    """A date as ``rules.explain.fmt_date`` wrote it ("Friday, July 3, 2026"), in the active language."""
    day = dt.datetime.strptime(text, "%A, %B %d, %Y").date()
    return date_format(day, _("l, F j, Y"))


# source key -> (the English the source writes, its msgid, how each value is read)
SOURCE_WORDING = {
    "inspections.compliancecharge": (
        re.compile(
            rf"^Specialty FOG Compliance Charge \(D6\): (?P<kind>[^,]+), (?P<quantity>\S+) (?P<unit>\w+), {_DAY}$"
        ),
        gettext_noop("Specialty FOG Compliance Charge (D6): %(kind)s, %(quantity)s %(unit)s, %(day)s"),
        {"kind": _lower_label, "unit": _label, "day": _day},
    ),
    "enforcement.penaltyorder": (
        re.compile(rf"^Penalty order (?P<reference>\S+), issued {_DAY}: (?P<violation>.+)$"),
        gettext_noop("Penalty order %(reference)s, issued %(day)s: %(violation)s"),
        {"violation": _label, "day": _day},
    ),
    "enforcement.servicecost": (
        re.compile(rf"^(?P<kind>.+) of sewer service, {_DAY} \(owed by (?P<owed_by>.+)\)$"),
        gettext_noop("%(kind)s of sewer service, %(day)s (owed by %(owed_by)s)"),
        {"kind": _label, "day": _day},
    ),
    "spills.spillcost": (
        re.compile(rf"^(?P<kind>.+), spill of {_DAY} \(owed by (?P<owed_by>.+)\)$"),
        gettext_noop("%(kind)s, spill of %(day)s (owed by %(owed_by)s)"),
        {"kind": _label, "day": _day, "owed_by": _label},
    ),
}
_REFUND = re.compile(r"^Refund of credit \((?P<method>.+)\)$")


def _english() -> bool:
    return (get_language() or "en").split("-")[0] == "en"


def charge_text(charge) -> str:
    """A charge's description in the active language (see the module's docstring)."""
    written = charge.description
    if _english() or charge.source == DIRECT:
        return written
    if charge.source == "permits.feecharge":
        return _label(written)  # a fee kind's label; a fee's own description stays as written
    wording = SOURCE_WORDING.get(charge.source)
    match = wording[0].match(written) if wording else None
    if match is None:
        return written
    pattern, msgid, readers = wording
    try:
        values = {name: readers.get(name, str)(value) for name, value in match.groupdict().items()}
    except ValueError:  # a date not in the form the source writes
        return written
    return gettext(msgid) % values


def entry_text(entry: LedgerEntry) -> str:
    """A ledger entry's line on the statement in the active language (see the module's docstring)."""
    if _english():
        return entry.description
    kind, payment, invoice = entry.kind, entry.payment, entry.invoice
    if kind == LedgerEntry.Kind.CHARGE and entry.charge_id is not None:
        return f"{charge_text(entry.charge)} ({entry.charge.provision})"
    if kind == LedgerEntry.Kind.PAYMENT and payment is not None:
        details = str(payment.get_method_display()) + (f", {payment.reference}" if payment.reference else "")
        return _("Payment %(receipt)s (%(details)s)") % {
            "receipt": payment.receipt_number,
            "details": details,
        }
    if kind == LedgerEntry.Kind.FUND and invoice is not None:
        return _("Penalty paid on %(invoice)s to the penalty account (P12)") % {"invoice": invoice.number}
    if kind == LedgerEntry.Kind.CANCELLATION and invoice is not None:
        return _("Invoice %(invoice)s cancelled") % {"invoice": invoice.number}
    if kind == LedgerEntry.Kind.WRITE_OFF and invoice is not None:
        return _("Write-off on %(invoice)s") % {"invoice": invoice.number}
    if kind == LedgerEntry.Kind.REFUND and (match := _REFUND.match(entry.description)):
        return _("Refund of credit (%(method)s)") % {"method": _label(match["method"])}
    return entry.description
