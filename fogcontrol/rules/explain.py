"""Plain-English explanations that travel with every computed result.

Every date, status, cap or size the rules engine produces carries an ``Explanation``: the
provision IDs it rests on and the steps that produced it, in sentences a Town clerk can read
aloud at a hearing ("Counting days": every computed date is shown with the rule that produced it).

A step is said with ``say("… %(day)s …", day=fmt_date(day))``: it is the English sentence (the
language of record, what is stored, compared and sent by the API) and it remembers its template
and values, so a page can say it again in its reader's language (issue 18; the template is the
catalogue's msgid, gathered by ``makemessages``'s ``say`` keyword; fogcontrol/core/working.py
translates). The rules stay plain Python: nothing here imports Django.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
from decimal import ROUND_HALF_UP, Decimal
from typing import Any


class Sentence(str):
    """A sentence of a working in English, the language of record, that keeps how it was said: its
    ``template`` (``%(name)s`` placeholders, ``%%`` for a percent sign) and its ``values`` (dates and
    day counts as ``DateText``/``DayCount``, nested phrases as ``Sentence``), so that it can be said
    again in another language. Equal to, and used as, its English text."""

    template: str
    values: dict[str, Any]

    def __new__(cls, template: str, values: dict[str, Any]):
        sentence = super().__new__(
            cls, template % values
        )  # %s says each value as str() would (cheap: ingest)
        sentence.template = template
        sentence.values = values
        return sentence

    def __reduce__(self):
        return (Sentence, (self.template, self.values))

    def as_record(self) -> list:
        """JSON-ready: [template, {name: value}] (see ``sentence_from_record``)."""
        return [self.template, {name: _value_record(value) for name, value in self.values.items()}]


def say(template: str, /, **values: Any) -> Sentence:
    """A step (or a phrase used in one) in English that can be said again in the reader's language.
    ``template`` is a literal with ``%(name)s`` placeholders (never an f-string: it is the msgid)."""
    return Sentence(template, values)


class DateText(str):
    """A date as a clerk writes it in English ("Friday, July 3, 2026"), keeping the date."""

    day: dt.date

    def __new__(cls, day: dt.date):
        text = super().__new__(cls, f"{day:%A}, {day:%B} {day.day}, {day.year}")
        text.day = day
        return text

    def __reduce__(self):
        return (DateText, (self.day,))


class DayCount(str):
    """A count of days in English ("1 calendar day", "15 business days"), keeping count and unit."""

    count: int
    unit: str

    def __new__(cls, count: int, unit: str):
        text = super().__new__(cls, f"{count} {unit}" if count == 1 else f"{count} {unit}s")
        text.count, text.unit = count, unit
        return text

    def __reduce__(self):
        return (DayCount, (self.count, self.unit))


def _value_record(value: Any) -> Any:
    if isinstance(value, Sentence):
        return {"say": value.as_record()}
    if isinstance(value, DateText):
        return {"date": value.day.isoformat()}
    if isinstance(value, DayCount):
        return {"days": value.count, "unit": value.unit}
    return str(value)


def _value_from_record(value: Any) -> Any:
    if isinstance(value, dict):
        if "say" in value:
            return sentence_from_record(value["say"])
        if "date" in value:
            return DateText(dt.date.fromisoformat(value["date"]))
        if "days" in value:
            return DayCount(int(value["days"]), str(value["unit"]))
    return str(value)


def joined(items: list, separator: str = "; ") -> str:
    """Phrases said one after another ("a; b; c"), each kept to be said again in another language
    (the days or factors a working lists)."""
    if not items:
        return ""
    result = items[0]
    for item in items[1:]:
        if separator == ", ":
            result = say("%(first)s, %(then)s", first=result, then=item)
        else:
            result = say("%(first)s; %(then)s", first=result, then=item)
    return result


def sentence_from_record(record: Any) -> Sentence | None:
    """The ``Sentence`` a stored ``[template, values]`` says; None for anything else (a step
    stored before sentences were kept, or written by hand)."""
    if not (isinstance(record, list | tuple) and len(record) == 2 and isinstance(record[0], str)):
        return None
    if not isinstance(record[1], dict):
        return None
    try:
        return Sentence(record[0], {name: _value_from_record(value) for name, value in record[1].items()})
    except (KeyError, TypeError, ValueError):
        return None


@dataclasses.dataclass(frozen=True)
class Explanation:
    """The provisions a result rests on and the steps that produced it, in order."""

    provisions: tuple[str, ...]
    steps: tuple[str, ...]

    def text(self) -> str:
        """The explanation as numbered lines, headed by the provisions (all rules)."""
        lines = [f"Provisions: {', '.join(self.provisions) or 'none'}"]
        lines.extend(f"{number}. {step}" for number, step in enumerate(self.steps, start=1))
        return "\n".join(lines)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form: {"provisions": [...], "steps": [...], "text": "..."}."""
        return {"provisions": list(self.provisions), "steps": list(self.steps), "text": self.text()}

    def as_record(self) -> dict[str, Any]:
        """What a record stores: ``as_dict()`` plus "said", each step's [template, values] (None
        for a step said without ``say``), so a stored working can be read in another language."""
        said = [step.as_record() if isinstance(step, Sentence) else None for step in self.steps]
        return self.as_dict() | {"said": said}

    @classmethod
    def from_record(cls, record: Any) -> Explanation | None:
        """The explanation a stored ``as_dict()``/``as_record()`` holds (None if it holds none);
        steps kept with "said" come back as sentences, the others as their English text."""
        if not isinstance(record, dict) or not isinstance(record.get("steps"), list):
            return None
        said = record.get("said") if isinstance(record.get("said"), list) else []
        steps = []
        for index, text in enumerate(record["steps"]):
            sentence = sentence_from_record(said[index]) if index < len(said) else None
            steps.append(sentence if sentence is not None and sentence == text else str(text))
        provisions = record.get("provisions") if isinstance(record.get("provisions"), list) else []
        return cls(provisions=tuple(str(p) for p in provisions), steps=tuple(steps))

    def plus(self, other: Explanation) -> Explanation:
        """This explanation followed by another; provisions merged without repeats."""
        return explain(self.provisions + other.provisions, self.steps + other.steps)


def explain(provisions: tuple[str, ...] | list[str], steps: tuple[str, ...] | list[str]) -> Explanation:
    """Build an ``Explanation``, dropping repeated provision IDs but keeping their order."""
    unique: list[str] = []
    for provision in provisions:
        if provision not in unique:
            unique.append(provision)
    return Explanation(provisions=tuple(unique), steps=tuple(steps))


def fmt_date(day: dt.date) -> DateText:
    """A date as a clerk writes it: "Friday, July 3, 2026" (said again in the reader's language)."""
    return _clerk_date(day)


@functools.lru_cache(maxsize=4096)
def _clerk_date(day: dt.date) -> DateText:
    # Remembered: an ingest's explanations write the same few hundred days thousands of times.
    return DateText(day)


def fmt_days(count: int, unit: str = "calendar day") -> DayCount:
    """ "1 calendar day", "15 calendar days", "5 business days" (said again in the reader's language)."""
    return _day_count(type(count), str(count), unit, count)


@functools.lru_cache(maxsize=1024)
def _day_count(kind: type, text: str, unit: str, count: int) -> DayCount:
    # Remembered, as the clerk's dates are: a device's snapshot says its frequency several times a
    # row. Keyed on the count's type and text, not its value: 1, True, Decimal("1") and
    # Decimal("1.0") hash alike but each keeps the text it gives.
    return DayCount(count, unit)


def fmt_percent(ratio: Decimal) -> str:
    """A ratio as a percentage to one decimal place: Decimal("0.25") -> "25.0%"."""
    return f"{(ratio * 100).quantize(Decimal('0.1'), rounding=ROUND_HALF_UP)}%"


def fmt_money(amount: Decimal) -> str:
    """Dollars with thousands separators: Decimal("25000") -> "$25,000.00"."""
    return f"${amount.quantize(Decimal('0.01')):,}"
