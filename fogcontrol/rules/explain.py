"""Plain-English explanations that travel with every computed result.

Every date, status, cap or size the rules engine produces carries an ``Explanation``: the
provision IDs it rests on and the steps that produced it, in sentences a Town clerk can read
aloud at a hearing ("Counting days": every computed date is shown with the rule that produced it).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
from decimal import ROUND_HALF_UP, Decimal
from typing import Any


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


def fmt_date(day: dt.date) -> str:
    """A date as a clerk writes it: "Friday, July 3, 2026"."""
    return _clerk_date(day)


@functools.lru_cache(maxsize=4096)
def _clerk_date(day: dt.date) -> str:
    # Remembered: an ingest's explanations write the same few hundred days thousands of times.
    return f"{day:%A}, {day:%B} {day.day}, {day.year}"


def fmt_days(count: int, unit: str = "calendar day") -> str:
    """ "1 calendar day", "15 calendar days", "5 business days"."""
    return f"{count} {unit}" if count == 1 else f"{count} {unit}s"


def fmt_percent(ratio: Decimal) -> str:
    """A ratio as a percentage to one decimal place: Decimal("0.25") -> "25.0%"."""
    return f"{(ratio * 100).quantize(Decimal('0.1'), rounding=ROUND_HALF_UP)}%"


def fmt_money(amount: Decimal) -> str:
    """Dollars with thousands separators: Decimal("25000") -> "$25,000.00"."""
    return f"${amount.quantize(Decimal('0.01')):,}"
