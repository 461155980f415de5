"""The shared CSV writer neutralises formula cells (issue 15, finding 7)."""

import csv
import io
from decimal import Decimal

from fogcontrol.core import csv_export


def test_text_starting_like_a_formula_is_quoted_and_numbers_stay_numbers():
    out = io.StringIO()
    csv_export.writer(out).writerow(
        ["=1+1", "+1", "-1", "@A1", "\tx", "\rx", "plain", -12.5, Decimal("-3"), 4, None, "a=b"]
    )
    cells = next(csv.reader(io.StringIO(out.getvalue())))
    assert cells == ["'=1+1", "'+1", "'-1", "'@A1", "'\tx", "'\rx", "plain", "-12.5", "-3", "4", "", "a=b"]
