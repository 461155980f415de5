"""What the manifest checks refuse (E6, E7, F1-F7), in the submitter's language (issue 18).

Each refusal is an English message id with named placeholders; ``refusal(code, **values)`` words it
in the active language: the portal's form and the API answer in the submitter's. A CSV import's
per-row problems are stored as the English of record (the import runs in English,
``servicing.imports``) and shown in the reader's language by ``shown``, which finds the message id
a stored sentence was written from and rewrites it with the same values (the values stay as
written: device numbers, names, dates). A sentence that is none of these is shown as stored.
"""

from __future__ import annotations

import functools
import re

from django.utils.translation import gettext, gettext_noop

REFUSALS = {
    "device_missing": gettext_noop(
        "Name the device: its Town device number, e.g. GI-00042, from the lid tag or permit."
    ),
    "device_unknown": gettext_noop(
        "No device %(identifier)s among the devices you may report on. Check the device number on the "
        "lid tag or the permit."
    ),
    "device_unknown_hauler": gettext_noop(
        "No device %(identifier)s among the devices you may report on. Check the device number on the "
        "lid tag or the permit. If it is a new customer, ask the FSE to name your company as its hauler."
    ),
    "hauler_id_unknown": gettext_noop(
        "No hauler company has the id %(text)s; give the company's name or id."
    ),
    "hauler_not_listed": gettext_noop(
        "%(company)s is not on the hauler list of %(served)s (device %(device)s); the haulers on its "
        "list: %(names)s. Name one of them, or ask the FOG Manager to add your hauler to the "
        "establishment's hauler list. If you did the work yourselves, or a company that is not "
        'registered did, name them instead: "self / other", kept by name and linked to no company.'
    ),
    "hauler_not_yours": gettext_noop("You do not work for a hauler named %(value)s; name your own company."),
    "hauler_which": gettext_noop(
        "Your account belongs to no hauler company, or to several: name the company that did this work."
    ),
    "establishment_not_served": gettext_noop(
        "That establishment is not served by device %(device)s; it serves: %(names)s."
    ),
    "facility_unknown": gettext_noop(
        "No receiving facility named %(text)s is registered; use the facility's registered name."
    ),
    "attachment_too_large": gettext_noop(
        "%(name)s is larger than %(megabytes)s MB; scan it at a lower resolution."
    ),
    "attachment_kind": gettext_noop(
        "%(name)s is not a PDF, JPEG or PNG file; attach the scanned ticket or a photo."
    ),
    "attachment_unreadable": gettext_noop(
        "%(name)s is not an image that can be opened (cut short, or too many pixels); scan the ticket "
        "or take the photo again."
    ),
    "hauler_name_long": gettext_noop(
        "Give the name of whoever did the work in at most %(limit)s characters."
    ),
    "null_character": gettext_noop("Contains a null character; retype the value."),
    "number_missing": gettext_noop("Enter the manifest or ticket number printed on the hauler's ticket."),
    "number_taken": gettext_noop(
        "%(hauler)s already submitted manifest %(number)s. To change it, submit a correction of that "
        "manifest."
    ),
    "serviced_at_missing": gettext_noop("Enter the date and time of service."),
    "serviced_at_future": gettext_noop(
        "The date of service is in the future; enter the day and time the work was done."
    ),
    "serviced_before_installed": gettext_noop(
        "The date of service is before device %(device)s was installed (%(installed)s); check the date "
        "or the device number."
    ),
    "negative": gettext_noop("Must not be negative."),
    "depths_both": gettext_noop(
        "Give both the FOG depth and the solids depth measured before pumping, or neither."
    ),
    "depths_deeper": gettext_noop(
        "FOG %(fog)s in + solids %(solids)s in is deeper than device %(device)s (%(depth)s in total "
        "depth); check the measurements."
    ),
    "gallons_over_vehicle": gettext_noop(
        "%(gallons)s gallons is more than vehicle %(plate)s holds (%(capacity)s gallons); check the "
        "volume or the vehicle."
    ),
    "delivered_before_service": gettext_noop(
        "The delivery to the receiving facility is dated before the service; check the dates."
    ),
    "certifier_missing": gettext_noop(
        "The manifest must be certified: type the full name of the person certifying it (your typed "
        "name is your signature)."
    ),
    "certification_missing": gettext_noop(
        "Missing certification: certify with the current text, version %(current)s."
    ),
    "certification_unknown": gettext_noop(
        "Unknown certification version %(version)s; the current text is version %(current)s."
    ),
}
# Words that stand in a refusal's values when there is no name to give.
THE_ESTABLISHMENT = gettext_noop("the establishment")
NONE_YET = gettext_noop("none yet")
NONE_ON_RECORD = gettext_noop("none on record")
HAULER_TEXT = gettext_noop("Hauler %(text)s")


def refusal(code: str, **values) -> str:
    """The refusal ``code`` in the active language, its placeholders filled with ``values``."""
    return gettext(REFUSALS[code]) % values


@functools.cache
def _patterns() -> tuple[tuple[re.Pattern, str], ...]:
    placeholder = re.compile(r"%\((\w+)\)s")
    patterns = []
    for message in REFUSALS.values():
        parts = placeholder.split(message)  # text, name, text, name, …, text
        regex = "".join(
            re.escape(part) if index % 2 == 0 else f"(?P<{part}>.+?)" for index, part in enumerate(parts)
        )
        patterns.append((re.compile(regex, re.DOTALL), message))
    return tuple(patterns)


def shown(stored: str) -> str:
    """A refusal stored in English (a CSV import's problem) in the reader's language."""
    for pattern, message in _patterns():
        match = pattern.fullmatch(stored)
        if match:
            return gettext(message) % match.groupdict()
    return stored
