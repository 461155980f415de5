"""Reading a printed document back in tests (issue 18): its text, and the English words left in a
document printed in Spanish, by the check of ``tests/test_spanish_pages.py`` (its word lists, the
catalogues' words and the records' own words: names, addresses, what staff wrote)."""

from __future__ import annotations

import io
import re

WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


def pdf_text(content: bytes) -> str:
    """The text of a PDF, its runs of white space as one space (pypdf)."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(content))
    return " ".join(" ".join(page.extract_text().split()) for page in reader.pages)


def english_left(text: str, *written: str) -> list[str]:
    """The words of ``text`` that are English and not Spanish, apart from the program's allowed
    names, the words of the town's records and the words of ``written`` (texts of record a
    document quotes as they were written, e.g. a charge's description or the rules' English working)."""
    from tests.test_spanish_pages import ALLOWED, english_words, proper_names

    allowed = ALLOWED | proper_names()
    allowed |= {word.lower() for value in written for word in WORD.findall(value or "")}
    return english_words(text, allowed)
