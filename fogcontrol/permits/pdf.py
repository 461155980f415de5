"""Printable documents: the permit (B2) and letters to permittees (B7), rendered by WeasyPrint.

Each is rendered from records that do not change (a permit version, a notice), so a reprint reads
exactly as the original; the one exception is a condition set beside the version's terms (a
reporting requirement), printed with its start date and, once it has ended, its end date.
"""

from __future__ import annotations

import logging

from django.template.loader import render_to_string

from fogcontrol.permits.models import PermitNotice, PermitVersion
from fogcontrol.permits.selectors import permit_conditions_of_version
from fogcontrol.program.selectors import ruleset_on
from fogcontrol.rules.ruleset import Ruleset


def permit_rules(ruleset: Ruleset) -> tuple[tuple[str, str], ...]:
    """The provisions a permit cites, with the words it prints for each, stating the numbers of
    the ruleset in force when the version took effect (never literals: the Town amends them)."""
    limit = f"{(ruleset.fill_limit_ratio * 100).normalize():f}%"
    term = _count(ruleset.permit_term_years, "year")
    return (
        ("B1", "Every FSE must hold a FOG Permit."),
        ("B2", "This permit states the approved GCD type and size, the service frequency and its expiry."),
        ("B6", f"The permit runs {term} and is renewed with the business licence."),
        ("B7", f"The Town gives at least {_count(ruleset.frequency_change_notice_days, 'day')}' notice of a "
               "change of service frequency."),
        ("B8", "A change of ownership, food types or operations needs a new application and permit."),
        ("E1", "The GCD is serviced at the frequency stated here, as assigned by the FOG Manager."),
        ("E3", f"FOG and solids may not exceed {limit} of the GCD's total design hydraulic depth."),
        ("F1", "Service manifests are kept on the premises and submitted to the FOG Manager."),
        ("F5", f"Manifests, receipts and hauler records are kept at least {_count(ruleset.record_retention_years, 'year')}."),
        ("J1", "Report a spill or upset at once by telephone to the numbers below."),
        ("J2", f"Follow with a written report to the FOG Manager within "
               f"{_count(ruleset.spill_report_working_days, 'working day')}."),
    )  # fmt: skip


def _count(number: int, unit: str) -> str:
    return f"{number} {unit}" if number == 1 else f"{number} {unit}s"


def _pdf(template: str, context: dict) -> bytes:
    # WeasyPrint reports each rendering step at INFO, some at import: quieten it first, and import it
    # only when a document is printed, so the pages and the API start without it.
    logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)
    from weasyprint import HTML

    html = render_to_string(template, context)
    return HTML(string=html).write_pdf()


def permit_pdf(version: PermitVersion) -> bytes:
    """The permit as issued in `version`: a printable document with the Town's name, number and rules."""
    permit = version.permit
    ruleset = ruleset_on(version.effective_from)
    return _pdf(
        "permits/pdf/permit.html",
        {
            "version": version,
            "permit": permit,
            "contacts": version.contacts,
            "rules": permit_rules(ruleset),
            "spill_report_days": ruleset.spill_report_working_days,
            "standing_conditions": permit_conditions_of_version(version),
            "issued_by_name": issued_by_name(version),
        },
    )


def issued_by_name(version: PermitVersion) -> str:
    """The person who issued the version as a permittee reads it: their name, never a login name.
    A version issued by a job (no person) is signed by the FOG Manager the version's contacts name."""
    person = version.issued_by
    full_name = person.get_full_name().strip() if person is not None else ""
    return full_name or (version.contacts or {}).get("fog_manager_name") or "the FOG Manager"


def notice_pdf(notice: PermitNotice, contacts: dict) -> bytes:
    """A notice as a printable letter on the Town's behalf."""
    return _pdf("permits/pdf/letter.html", {"notice": notice, "contacts": contacts})
