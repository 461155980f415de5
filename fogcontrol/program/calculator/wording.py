"""The calculator's English from the rules (pure Python: no translation) marked for the catalogue,
so the page shows it in the user's language through `gettext` / `{{ value|translated }}`: the
deadline rules' titles and start dates (rules/deadlines.py), the ordinance's sections and the
device and violation kinds (calculations.py). Provision IDs and numbers stay as the rules give
them. A test checks every rule's title and start date is here (docs/i18n.md)."""

from django.utils.translation import gettext, gettext_noop

# rules/deadlines.py DEADLINE_RULES: each rule's title
TITLES = (
    gettext_noop("Permit renewal due / expiry"),
    gettext_noop("Frequency change: earliest effective date"),
    gettext_noop("Employee BMP training due"),
    gettext_noop("Annual device inspection due"),
    gettext_noop("Next full pump-out due"),
    gettext_noop("Record retention: earliest purge date"),
    gettext_noop("Remodel / process change: latest notice date"),
    gettext_noop("Remodel / process change: earliest start after notice"),
    gettext_noop("Written spill report due"),
    gettext_noop("Existing food grinders removed"),
    gettext_noop("Suspension / revocation hearing window"),
    gettext_noop("Latest continued hearing date"),
    gettext_noop("Hearing decision due"),
    gettext_noop("Emergency suspension hearing"),
    gettext_noop("Emergency suspension decision"),
    gettext_noop("Clean-up cost payment"),
    gettext_noop("Administrative complaint hearing"),
    gettext_noop("Appeal to the Town Council"),
    gettext_noop("Penalty payment due"),
    gettext_noop("Penalty lien eligibility"),
    gettext_noop("Fee delinquency"),
)
# ... and what its start date is
START_DESCRIPTIONS = (
    gettext_noop("Date the permit was issued or last renewed"),
    gettext_noop("Date notice of the change was given"),
    gettext_noop("Date of the last employee training"),
    gettext_noop("Date of the last Town inspection of the device"),
    gettext_noop("Date of the last full pump-out"),
    gettext_noop("Date of the manifest, receipt or record"),
    gettext_noop("Planned start date of the work"),
    gettext_noop("Date the written notice was given"),
    gettext_noop("Date of the spill or upset"),
    gettext_noop("Date Chapter 10.02 took effect"),
    gettext_noop("Date the notice was mailed"),
    gettext_noop("Date first set for the hearing"),
    gettext_noop("Date the hearing concluded"),
    gettext_noop("Date the emergency suspension order was issued"),
    gettext_noop("Date of the emergency hearing"),
    gettext_noop("Date the costs were invoiced"),
    gettext_noop("Date the complaint was served"),
    gettext_noop("Date of notice of the hearing officer's decision"),
    gettext_noop("Date the penalty order was issued"),
    gettext_noop("Date of the notice of the fee or charge"),
)
# calculations.py SECTIONS, DEVICE_KIND_LABELS, VIOLATION_KIND_LABELS
LABELS = (
    gettext_noop("Registry and responsibility"),
    gettext_noop("FOG permit"),
    gettext_noop("Best management practices"),
    gettext_noop("Inspection, sampling, monitoring"),
    gettext_noop("Maintenance"),
    gettext_noop("Records"),
    gettext_noop("Facility changes"),
    gettext_noop("Compliance schedule agreements"),
    gettext_noop("Sewer overflows"),
    gettext_noop("Upset and spill notification"),
    gettext_noop("Prohibited discharges"),
    gettext_noop("Suspension and revocation (10.02.260)"),
    gettext_noop("Emergency suspension (10.02.270)"),
    gettext_noop("Cost recovery"),
    gettext_noop("Termination of service"),
    gettext_noop("Enforcement and penalties"),
    gettext_noop("Fees and debts"),
    gettext_noop("Gravity grease interceptor"),
    gettext_noop("Hydromechanical interceptor (grease trap)"),
    gettext_noop("Other grease control device"),
    gettext_noop("No FOG permit, or refused to renew (P7(1), per day)"),
    gettext_noop("Service reports or manifests not kept or furnished (P7(2), per day)"),
    gettext_noop("Maintenance schedule not followed (P7(3), per day)"),
    gettext_noop("Sewer system overflow (P7(4), per occurrence; P7(5) under an order)"),
)


def section(label: str) -> str:
    """ "B. FOG permit" (calculations.section_of) in the page's language: the letter kept."""
    letter, _dot, name = label.partition(". ")
    return f"{letter}. {gettext(name)}" if name else gettext(label)


def start_and_title(rule) -> tuple[str, str]:
    return gettext(rule.title), gettext(rule.start_description)
