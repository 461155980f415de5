"""Printable documents: the permit (B2) and letters to permittees (B7), rendered by WeasyPrint.

Each is rendered from records that do not change (a permit version, a notice), so a reprint reads
exactly as the original; the one exception is a condition set beside the version's terms (a
reporting requirement), printed with its start date and, once it has ended, its end date.
"""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from fogcontrol.core.languages import DATE_FORMATS, Language, document_language, establishment_recipient
from fogcontrol.core.pdf import render_pdf
from fogcontrol.permits.models import PermitNotice, PermitVersion
from fogcontrol.permits.selectors import permit_conditions_of_version
from fogcontrol.program.selectors import ruleset_on
from fogcontrol.rules.ruleset import Ruleset

LANGUAGES = tuple(Language.values)


def permit_rules(ruleset: Ruleset) -> tuple[tuple[str, str], ...]:
    """The provisions a permit cites, with the words it prints for each, stating the numbers of
    the ruleset in force when the version took effect (never literals: the Town amends them). In the
    active language (the permits app's catalogue)."""
    limit = f"{(ruleset.fill_limit_ratio * 100).normalize():f}%"
    term_years = ruleset.permit_term_years
    notice_days = ruleset.frequency_change_notice_days
    retention_years = ruleset.record_retention_years
    report_days = ruleset.spill_report_working_days
    return (
        ("B1", _("Every FSE must hold a FOG Permit.")),
        ("B2", _("This permit states the approved GCD type and size, the service frequency and its expiry.")),
        ("B6", ngettext("The permit runs %(count)s year and is renewed with the business licence.",
                        "The permit runs %(count)s years and is renewed with the business licence.",
                        term_years) % {"count": term_years}),
        ("B7", ngettext("The Town gives at least %(count)s day's notice of a change of service frequency.",
                        "The Town gives at least %(count)s days' notice of a change of service frequency.",
                        notice_days) % {"count": notice_days}),
        ("B8", _("A change of ownership, food types or operations needs a new application and permit.")),
        ("E1", _("The GCD is serviced at the frequency stated here, as assigned by the FOG Manager.")),
        ("E3", _("FOG and solids may not exceed %(limit)s of the GCD's total design hydraulic depth.")
               % {"limit": limit}),
        ("F1", _("Service manifests are kept on the premises and submitted to the FOG Manager.")),
        ("F5", ngettext("Manifests, receipts and hauler records are kept at least %(count)s year.",
                        "Manifests, receipts and hauler records are kept at least %(count)s years.",
                        retention_years) % {"count": retention_years}),
        ("J1", _("Report a spill or upset at once by telephone to the numbers below.")),
        ("J2", ngettext("Follow with a written report to the FOG Manager within %(count)s working day.",
                        "Follow with a written report to the FOG Manager within %(count)s working days.",
                        report_days) % {"count": report_days}),
    )  # fmt: skip


# The model's choices the permit prints through {% translate %} (so they are in the catalogue).
CHOICE_LABELS = (
    gettext_noop("Gravity grease interceptor"),
    gettext_noop("Hydromechanical interceptor / grease trap"),
    gettext_noop("Other approved device"),
    gettext_noop("Issued"),
    gettext_noop("Renewed (B6)"),
    gettext_noop("Modified (B7)"),
    gettext_noop("Expiry aligned to the business licence (B6)"),
)
# How each language writes a date in full ("May 4, 2026", "4 de mayo de 2026").
LONG_DATE_FORMATS = {"en": "l, F j, Y", "es": r"l j \d\e F \d\e Y"}


def permit_language(user, establishment) -> str:
    """The language a permit prints in when none is asked for: an outside user's own preference;
    for staff, the preference of the FSE's contact (who receives it), else English."""
    if user is not None and not getattr(user, "is_program_staff", True):
        return user.preferred_language if user.preferred_language in LANGUAGES else "en"
    contact = getattr(establishment, "contact", None) or getattr(establishment, "operator", None)
    language = getattr(contact, "preferred_language", "en")
    return language if language in LANGUAGES else "en"


def _pdf(template: str, context: dict, *, language: str = "en") -> bytes:
    # WeasyPrint reports each rendering step at INFO, some at import: core.pdf quietens it first, and
    # imports it only when a document is printed, so the pages and the API start without it.
    return render_pdf(template, context, language=language)


def permit_pdf(version: PermitVersion, *, language: str = "en") -> bytes:
    """The permit as issued in `version`: a printable document with the Town's name, number and
    rules, in ``language`` ("en" or "es"; the terms as entered stay as written)."""
    language = language if language in LANGUAGES else "en"
    permit = version.permit
    ruleset = ruleset_on(version.effective_from)
    with translation.override(language):
        rules, signed_by = permit_rules(ruleset), issued_by_name(version)
    return _pdf(
        "permits/pdf/permit.html",
        {
            "date_format": DATE_FORMATS[language],
            "long_date_format": LONG_DATE_FORMATS[language],
            "version": version,
            "permit": permit,
            "contacts": version.contacts,
            "rules": rules,
            "spill_report_days": ruleset.spill_report_working_days,
            "standing_conditions": permit_conditions_of_version(version),
            "issued_by_name": signed_by,
        },
        language=language,
    )


def issued_by_name(version: PermitVersion) -> str:
    """The person who issued the version as a permittee reads it: their name, never a login name.
    A version issued by a job (no person) is signed by the FOG Manager the version's contacts name."""
    person = version.issued_by
    full_name = person.get_full_name().strip() if person is not None else ""
    return full_name or (version.contacts or {}).get("fog_manager_name") or _("the FOG Manager")


def notice_language(user, notice: PermitNotice, asked: str | None = None) -> str:
    """The language a notice's letter prints in (issue 18): as asked (``?language=``), else an
    outside user's own, else its addressee's (the party, or the establishment's contact)."""
    return document_language(user, notice.party, establishment_recipient(notice.establishment), asked=asked)


def notice_pdf(notice: PermitNotice, contacts: dict, *, language: str = "en") -> bytes:
    """A notice as a printable letter on the Town's behalf, in ``language`` when the notice was
    written in it (issue 18: B6, B7), else in the English of record."""
    language = notice.language_written(language if language in LANGUAGES else "en")
    subject, body = notice.text_in(language)
    return _pdf(
        "permits/pdf/letter.html",
        {"notice": notice, "contacts": contacts, "subject": subject, "body": body,
         "date_format": DATE_FORMATS[language]},
        language=language,
    )  # fmt: skip
