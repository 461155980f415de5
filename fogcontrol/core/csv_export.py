"""The one CSV writer every export uses: a cell a spreadsheet would run as a formula is neutralised.

A spreadsheet opening a CSV treats a cell starting with ``=``, ``+``, ``-`` or ``@`` as a
formula (``=HYPERLINK(...)`` leaks data, DDE runs commands), and a leading tab or carriage return
hides such a character. Following OWASP's advice, any *text* cell starting with one of these
characters is written with a leading single quote, which spreadsheets show as text. Numbers
passed as numbers (int, float, Decimal) are written unchanged, so ``-12.5`` stays a number; a
number that arrives as text (``"-12.5"``) is quoted like any other text: the export cannot tell it
from a formula such as ``-1+cmd|...``. See docs/security.md.
"""

import csv
from collections.abc import Iterable

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise(value):
    """The cell as it should be written: text that starts like a formula gets a leading quote."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class SafeWriter:
    """`csv.writer` with every cell passed through `neutralise`."""

    def __init__(self, fileobj, **kwargs):
        self._writer = csv.writer(fileobj, **kwargs)

    def writerow(self, row: Iterable):
        return self._writer.writerow([neutralise(value) for value in row])

    def writerows(self, rows: Iterable[Iterable]) -> None:
        for row in rows:
            self.writerow(row)


def writer(fileobj, **kwargs) -> SafeWriter:
    """A CSV writer for an export a person may open in a spreadsheet (formula cells neutralised)."""
    return SafeWriter(fileobj, **kwargs)


class _Line:
    """A file that hands back what is written to it (for streaming a CSV line by line)."""

    def write(self, value):
        return value


def stream(header: Iterable, rows: Iterable[Iterable]):
    """The lines of a CSV, one at a time (for a `StreamingHttpResponse`: memory flat at any size)."""
    line = SafeWriter(_Line())
    yield line.writerow(header)
    for row in rows:
        yield line.writerow(row)
