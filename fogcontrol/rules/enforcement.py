"""Violations and the steps of an enforcement case as the ordinance reads them (P3, P7, H3, H4).

Pure functions: which P7 penalty class a violation falls in, how many daily offences it counts on a
day (P3), whether a compliance schedule agreement may be entered into (H3) and whether a milestone
was missed (H4). Amounts are Decimals; dates are plain dates; every answer carries its working.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from decimal import Decimal

from fogcontrol.rules.explain import Explanation, explain, fmt_date, fmt_money, say
from fogcontrol.rules.penalties import MAINTENANCE, NO_PERMIT, RECORDS, SSO, violation_days_explained

OTHER = "other"
DISCHARGE = "discharge"

# P7: the provisions whose breach falls in each penalty class. B1/B6: no permit (P7(1)); F (records
# and manifests): P7(2); E (maintenance schedule): P7(3); J (spills, an SSO): P7(4)/(5); K (prohibited
# discharges) has no P7 class of its own.
_KIND_BY_SECTION = {"B": NO_PERMIT, "F": RECORDS, "E": MAINTENANCE, "J": SSO, "K": DISCHARGE}


def violation_kind(provision: str) -> str:
    """P7: the penalty class of a violation of ``provision``: ``no_permit`` (B), ``records`` (F),
    ``maintenance`` (E), ``sso`` (J), ``discharge`` (K) or ``other``."""
    section = (provision or "").strip().upper()[:1]
    return _KIND_BY_SECTION.get(section, OTHER)


def violation_days_on(began_on: dt.date, cured_on: dt.date | None, today: dt.date) -> tuple[int, str]:
    """P3: the separate daily offences of a violation so far: from the day it began to the day it was
    cured (both counted: it continued on the cure day until cured), or to ``today`` while open. A
    violation that begins after ``today`` counts 0 days."""
    last = cured_on if cured_on is not None else today
    if last < began_on:
        return 0, say(
            "The violation begins on %(day)s: no day has been counted yet (P3).", day=fmt_date(began_on)
        )
    days, sentence = violation_days_explained(began_on, last)
    if cured_on is None:
        return days, say(
            "%(counted)s It is not cured: the count runs to today, %(today)s, and grows each day.",
            counted=sentence,
            today=fmt_date(today),
        )
    return days, say("%(counted)s It was cured on %(day)s.", counted=sentence, day=fmt_date(cured_on))


@dataclasses.dataclass(frozen=True)
class Owed:
    """One amount owed to the Town: what it is for, how much is unpaid, and the provision it is
    owed under (H3 names each)."""

    label: str
    amount: Decimal
    provision: str = ""


@dataclasses.dataclass(frozen=True)
class AgreementVerdict:
    allowed: bool
    total_owed: Decimal
    explanation: Explanation


def compliance_agreement_allowed(owed: list[Owed] | tuple[Owed, ...]) -> AgreementVerdict:
    """H3: no compliance schedule agreement until every fee, charge or penalty owed to the Town is
    paid in full. The refusal names each amount and the total."""
    unpaid = [item for item in owed if item.amount > 0]
    total = sum((item.amount for item in unpaid), Decimal("0"))
    if not unpaid:
        return AgreementVerdict(
            True,
            total,
            explain(
                ["H3"],
                [say("Nothing is owed to the Town: a compliance schedule agreement may be made (H3).")],
            ),
        )
    steps = [
        say("%(label)s: %(amount)s unpaid.", label=item.label, amount=fmt_money(item.amount))
        for item in unpaid
    ]
    steps.append(
        say(
            "H3: no compliance schedule agreement may be entered into until every amount owed to the Town is "
            "paid in full. Owed now: %(total)s.",
            total=fmt_money(total),
        )
    )
    return AgreementVerdict(False, total, explain(["H3"], steps))


def milestone_missed(due_on: dt.date, met_on: dt.date | None, today: dt.date) -> tuple[bool, str]:
    """H4: a milestone of a compliance schedule agreement is missed when it was not met by its date
    (met later, or still not met after it). A missed milestone may lead to suspension or revocation
    of the permit (L1, H4)."""
    if met_on is not None and met_on <= due_on:
        return False, say(
            "Met on %(met)s, by its date %(due)s (H4).", met=fmt_date(met_on), due=fmt_date(due_on)
        )
    if met_on is None and today <= due_on:
        return False, say("Due on %(due)s: not yet met, not yet late (H4).", due=fmt_date(due_on))
    when = say("met late, on %(met)s", met=fmt_date(met_on)) if met_on is not None else say("not met")
    return True, say(
        "Due on %(due)s, %(when)s: the agreement was not met in its term. The FOG Manager may "
        "begin suspension or revocation of the permit (H4, L1).",
        due=fmt_date(due_on),
        when=when,
    )


@dataclasses.dataclass(frozen=True)
class Business:
    """Who holds (or asks for) a permit, as the registry records it: the establishment, its business
    licence, its business name and its operator (a registry Party)."""

    establishment_id: int
    licence_number: str
    business_name: str
    operator_id: int | None = None
    operator_name: str = ""


def _same_name(a: str, b: str) -> bool:
    return bool(a.strip()) and " ".join(a.lower().split()) == " ".join(b.lower().split())


def l5_associations(applicant: Business, revoked: Business) -> list[str]:
    """L5: how an application's business is associated with a permittee whose permit was revoked (any
    future application by a person associated with the order "may be denied": a person decides, so
    this only names the links). Links: the same establishment and business licence, the same operator,
    the same business name (at another licence or location). None: not associated."""
    if applicant.establishment_id == revoked.establishment_id:
        return [say("the same business and business licence (%(licence)s)", licence=revoked.licence_number)]
    links = []
    if applicant.operator_id is not None and applicant.operator_id == revoked.operator_id:
        links.append(say("the same operator (%(operator)s)", operator=revoked.operator_name))
    if _same_name(applicant.business_name, revoked.business_name):
        links.append(say("the same business name (%(name)s)", name=revoked.business_name))
    return links
