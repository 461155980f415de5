"""Matching a spill to FSEs by address: offered with a score, never assumed. Staff confirm a
candidate by linking it (with the match as the reason). One query, whatever the registry's size:
only establishments at the same house number are compared, by the street words that remain."""

from __future__ import annotations

import dataclasses
import re
from difflib import SequenceMatcher

from django.db.models import QuerySet

from fogcontrol.registry.imports.normalise import STREET_TYPES, text_key
from fogcontrol.registry.models import FoodServiceEstablishment

_NUMBER = re.compile(r"^\s*(\d+)\b")
MIN_SCORE = 60
MAX_CANDIDATES = 5


@dataclasses.dataclass(frozen=True)
class Candidate:
    establishment: FoodServiceEstablishment
    score: int

    @property
    def reason(self) -> str:
        return f"Address match confirmed by staff ({self.score}% like {self.establishment.site_address})."


def street_words(address: str) -> str:
    """The address compared: lower case, punctuation and street types (St, Street) dropped."""
    words = re.sub(r"[^\w\s]", " ", text_key(address)).split()
    return " ".join(word for word in words if word.upper() not in STREET_TYPES)


def address_score(a: str, b: str) -> int:
    """0-100: how alike two addresses are (the same house number is required)."""
    number_a, number_b = _NUMBER.match(a or ""), _NUMBER.match(b or "")
    if not number_a or not number_b or number_a.group(1) != number_b.group(1):
        return 0
    return round(100 * SequenceMatcher(None, street_words(a), street_words(b)).ratio())


def address_candidates(spill, establishments: QuerySet[FoodServiceEstablishment]) -> list[Candidate]:
    """FSEs whose site address is like the spill's, best first, not already linked."""
    number = _NUMBER.match(spill.address or "")
    if number is None:
        return []
    linked = {link.establishment_id for link in spill.links.all()}
    rows = establishments.filter(site_address__startswith=number.group(1)).exclude(pk__in=linked)
    scored = [Candidate(fse, address_score(spill.address, fse.site_address)) for fse in rows[:200]]
    scored = [candidate for candidate in scored if candidate.score >= MIN_SCORE]
    scored.sort(key=lambda candidate: -candidate.score)
    return scored[:MAX_CANDIDATES]
