"""The inspection report's words from the rules, in the active language (issue 18): the checklist's
sections, items and answers, and each finding's text. A finding is stored as the rules wrote it in
English (the checklist item's failure, then the inspector's note as written): the report prints the
item's words translated and the note as the inspector wrote it; the 25% rule's finding and reading
(E3) are rebuilt from their numbers. Text of any other shape prints as stored."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from fogcontrol.rules import inspections as rules

FILL = re.compile(
    r"^FOG plus solids are (?P<ratio>[\d.,]+%) of the design depth, over the (?P<limit>[\d.,]+%) limit$"
)
READING = re.compile(
    r"^FOG (?P<fog>[\d.]+) in \+ solids (?P<solids>[\d.]+) in of (?P<total>[\d.]+) in = (?P<ratio>[\d.,]+%)$"
)
DELAYED = re.compile(r"^ by (?P<minutes>\d+) minutes$")


def answer_label(answer: str) -> str:
    return {rules.PASS: _("Pass"), rules.FAIL: _("Fail"), rules.NOT_APPLICABLE: _("N/A")}.get(answer, answer)


def rows(items: list[dict]) -> list[dict]:
    """Checklist rows with their label and answer in the active language."""
    return [
        {**row, "label": _(row["label"]), "answer_label": answer_label(row.get("answer") or "")}
        for row in items
    ]


def sections(found: list[dict]) -> list[dict]:
    return [{**section, "title": _(section["title"]), "items": rows(section["items"])} for section in found]


def devices(found: list[dict]) -> list[dict]:
    return [{**device, "items": rows(device["items"])} for device in found]


def finding_description(finding) -> str:
    """The finding's text in the active language (see the module docstring)."""
    text = finding.description
    fill = FILL.match(text)
    if fill:
        return (
            _("FOG plus solids are %(ratio)s of the design depth, over the %(limit)s limit")
            % fill.groupdict()
        )
    item = rules.ITEMS.get(finding.item or "")
    if item is None or not text.startswith(item.failure):
        return text
    rest = text[len(item.failure) :]
    delayed = DELAYED.match(rest)
    if delayed:
        minutes = int(delayed["minutes"])
        rest = " " + ngettext("by %(count)s minute", "by %(count)s minutes", minutes) % {"count": minutes}
    return _(item.failure) + rest


def reading(text: str) -> str:
    """A measurement as the rules wrote it (E3), in the active language."""
    found = READING.match(text or "")
    if not found:
        return text
    return _("FOG %(fog)s in + solids %(solids)s in of %(total)s in = %(ratio)s") % found.groupdict()
