"""B6: a permit's standing turns to "Renewal due" on the day its renewal window opens, not a day sooner."""

import dataclasses
import datetime as dt

import pytest

from fogcontrol.permits.models import Permit, PermitStatus
from fogcontrol.permits.selectors import permit_standing
from fogcontrol.rules.ruleset import CHAPTER_10_02

pytestmark = pytest.mark.provision("B6")

VALID_UNTIL = dt.date(2027, 6, 30)


def _standing(on: dt.date, window_days: int):
    ruleset = dataclasses.replace(CHAPTER_10_02, permit_renewal_window_days=window_days)
    permit = Permit(status=PermitStatus.ISSUED, valid_until=VALID_UNTIL)
    return permit_standing(permit, on, ruleset)


@pytest.mark.parametrize("window_days", [30, 60, 90])
def test_b6_renewal_due_from_the_first_day_of_the_window(window_days):
    opens = VALID_UNTIL - dt.timedelta(days=window_days)
    assert _standing(opens - dt.timedelta(days=1), window_days).label == "In force"
    due = _standing(opens, window_days)
    assert due.label == "Renewal due"
    assert "B6" in due.detail


def test_b6_expired_from_the_day_after_the_term():
    assert _standing(VALID_UNTIL, 60).label == "Renewal due"
    assert _standing(VALID_UNTIL + dt.timedelta(days=1), 60).label == "Expired"
