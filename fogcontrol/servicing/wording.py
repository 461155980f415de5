"""What the rules and services wrote in English, shown in the page's language (docs/i18n.md).

Review flags keep their English sentence in the database (the record as written); a page shows a
flag by its code: the title of ``rules.servicing_rules.FLAG_TITLES`` translated, the provision ID
unchanged. Sentences stored word for word by the services (a requirement's closing note) are their
own message ids. The rules stay pure: their English is marked here for the catalogue.
"""

from __future__ import annotations

from django.utils.translation import get_language, gettext, gettext_noop

from fogcontrol.rules.servicing_rules import FLAG_TITLES
from fogcontrol.servicing.services.state import MET_BY_SAME_VISIT

MARKED = (
    # rules/servicing_rules.py FLAG_TITLES
    gettext_noop("More gallons removed than the device holds (beyond the tolerance)"),
    gettext_noop("A full pump-out that removed far less than the device holds"),
    # Translators: "25%" is a percentage, not a placeholder.
    # xgettext:no-python-format
    gettext_noop("FOG and solids over the 25% limit before pumping"),
    gettext_noop("The same vehicle at two sites at the same time"),
    gettext_noop("The reading contradicts a recent inspection"),
    gettext_noop("Service came late after the device was found over the limit"),
    gettext_noop("A full pump-out without the baffles cleaned"),
    gettext_noop("Serviced after the due date"),
    gettext_noop("The device is recorded as removed from service"),
    # Translators: "25%" is a percentage, not a placeholder.
    # xgettext:no-python-format
    gettext_noop("The device has no design depth on record: the 25% rule cannot be checked"),
    gettext_noop("No receiving facility named for the removed material"),
    gettext_noop("Needs service more often than the shortest allowed frequency"),
    gettext_noop("A grease trap that needs an interceptor"),
    gettext_noop("A manifest filed by the FSE or owner shares the hauler's manifest number"),
    # services/state.py
    gettext_noop("The same visit removed all FOG, sludge and other material (E6)."),
)
# A frequency change's status (FrequencyChange.status, a property: no choices).
CHANGE_STATUS_LABELS = {
    "pending": gettext_noop("Pending"),
    "applied": gettext_noop("Applied"),
    "withdrawn": gettext_noop("Withdrawn"),
}
assert MET_BY_SAME_VISIT in MARKED


def english() -> bool:
    return (get_language() or "en").split("-")[0] == "en"


def flag_text(code: str, message: str) -> str:
    """A review flag's reason: the stored English sentence on an English page; elsewhere its
    code's title in the page's language (the stored sentence stays the record)."""
    if english() or code not in FLAG_TITLES:
        return message
    return gettext(FLAG_TITLES[code][1]) + "."


def stored_note(note: str) -> str:
    """A note a service stored word for word (``MET_BY_SAME_VISIT``): translated when it is one of
    ours, as written otherwise (a person's own words)."""
    return gettext(note) if note in MARKED else note
