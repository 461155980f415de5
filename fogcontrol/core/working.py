"""The rules' workings said in the reader's language (issue 18).

A rule says each step with ``rules.explain.say``: the step is English, the language of record (what
records store, what the API sends, what tests compare), and keeps its template and values. Here a
page says it again in the active language: the template through the catalogues (the rules' own,
``fogcontrol/rules/locale``), dates and day counts in that language's words. A step said before
sentences were kept, or a template the catalogue lacks, shows its English, marked ``lang="en"`` by
the templates (``working_steps`` tells which).
"""

from __future__ import annotations

import re
from typing import Any

from django.utils import dateformat, translation
from django.utils.translation import gettext, ngettext, pgettext

from fogcontrol.rules.explain import DateText, DayCount, Explanation, Sentence, say

# A template's placeholders ("%(day)s") and percent signs ("%%"): not words of any language.
PLACEHOLDER = re.compile(r"%\([^)]*\)s|%%")

# A working's dates in full, with the weekday a clerk reads aloud ("Friday, July 3, 2026").
WORKING_DATE_FORMATS = {"en": "l, F j, Y", "es": r"l j \d\e F \d\e Y"}


def _days(value: DayCount) -> str:
    count = value.count
    if value.unit == "calendar day":
        return ngettext("%(count)s calendar day", "%(count)s calendar days", count) % {"count": count}
    if value.unit == "business day":
        return ngettext("%(count)s business day", "%(count)s business days", count) % {"count": count}
    if value.unit == "working day":
        return ngettext("%(count)s working day", "%(count)s working days", count) % {"count": count}
    if value.unit == "day":
        return ngettext("%(count)s day", "%(count)s days", count) % {"count": count}
    return str(value)


def _date(value: DateText) -> str:
    language = translation.get_language() or "en"
    language = language if language in WORKING_DATE_FORMATS else language.split("-")[0]
    return dateformat.format(value.day, WORKING_DATE_FORMATS.get(language, WORKING_DATE_FORMATS["en"]))


def _value(value: Any) -> str:
    if isinstance(value, Sentence):
        return said(value)
    if isinstance(value, DateText):
        return _date(value)
    if isinstance(value, DayCount):
        return _days(value)
    return str(value)


def _template_translated(step: Sentence) -> bool:
    english = (translation.get_language() or "en").startswith("en")
    words = PLACEHOLDER.sub("", step.template)  # "%(day)s (%(reason)s)" has no words to translate
    return english or gettext(step.template) != step.template or not any(c.isalpha() for c in words)


def english_label(label: Any) -> Sentence:
    """A label marked for translation elsewhere (a model choice's ``gettext_lazy``) as a phrase of a
    working: its English, the record's, said again from the catalogue that already holds it."""
    with translation.override("en"):
        english = str(label)
    return say(english.replace("%", "%%"))


def is_translated(step: Any) -> bool:
    """Whether ``step`` reads in the active language: English is always; another language only when
    the step is a sentence whose template (and every nested phrase's) the catalogue holds."""
    if (translation.get_language() or "en").startswith("en"):
        return True
    if not isinstance(step, Sentence) or not _template_translated(step):
        return False
    return all(is_translated(value) for value in step.values.values() if isinstance(value, Sentence))


def said(step: Any) -> str:
    """``step`` in the active language; its English when it is not a sentence, or when the
    translation does not take its values (a catalogue fault shows the English of record, not an error)."""
    if not isinstance(step, Sentence) or not _template_translated(step):
        return str(step)
    try:
        return gettext(step.template) % {name: _value(value) for name, value in step.values.items()}
    except (KeyError, TypeError, ValueError):
        return str(step)


def as_explanation(working: Any) -> Explanation | None:
    """An ``Explanation`` from one, from what a record stored (``as_dict``/``as_record``), or from a
    list of steps (advice, flags)."""
    if isinstance(working, Explanation):
        return working
    if isinstance(working, list | tuple):
        return Explanation(provisions=(), steps=tuple(working))
    return Explanation.from_record(working)


def working_steps(working: Any) -> list[tuple[str, bool]]:
    """Each step of ``working`` in the active language, with whether it is in it (False: English)."""
    explanation = as_explanation(working)
    if explanation is None:
        return []
    return [(said(step), is_translated(step)) for step in explanation.steps]


def working_provisions(working: Any) -> str:
    """The first line of ``working_text``: "Provisions: E1, E2" in the active language."""
    explanation = as_explanation(working)
    # Provision IDs stay as they are; "Counting days" is a name, said in the reader's language.
    provisions = ", ".join(gettext(p) for p in (explanation.provisions if explanation else ()))
    return gettext("Provisions: %(provisions)s") % {
        "provisions": provisions or pgettext("provisions", "none")
    }


def working_text(working: Any) -> str:
    """``Explanation.text()`` in the active language: the provisions, then the numbered steps (a
    single sentence is said as it is; other text is shown as written)."""
    explanation = as_explanation(working)
    if explanation is None:
        return said(working) if isinstance(working, Sentence) else str(working or "")
    lines = [working_provisions(explanation)]
    lines.extend(f"{number}. {said(step)}" for number, step in enumerate(explanation.steps, start=1))
    return "\n".join(lines)


def working_is_translated(working: Any) -> bool:
    """Whether every step of ``working`` reads in the active language (a single sentence: whether
    it does; other text is taken as written in it)."""
    if isinstance(working, Sentence):
        return is_translated(working)
    explanation = as_explanation(working)
    return explanation is None or all(is_translated(step) for step in explanation.steps)
