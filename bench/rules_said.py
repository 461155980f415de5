"""The rules' work for one manifest, timed (docs/performance.md, "The rules said with say"):
recommend_frequency + reading_consequences + device_status, and the working as stored (as_record,
or as_dict before issue 18). Compare a checkout: PYTHONPATH=<old tree> .venv/bin/python bench/rules_said.py"""

import datetime as dt
import time
from decimal import Decimal as D

import fogcontrol.rules.maintenance as m
from fogcontrol.rules.calendar import TownCalendar
from fogcontrol.rules.devices import Observation
from fogcontrol.rules.ruleset import CHAPTER_10_02 as R

print(m.__file__)
cal = TownCalendar.standard(range(2020, 2030))
obs = [Observation(30, D(1), D(2)), Observation(60, D(2), D(4)), Observation(90, D(3), D(6))]


def one():
    rec = m.recommend_frequency(kind="gravity_interceptor", total_depth_in=48, observations=obs, ruleset=R)
    c = m.reading_consequences(
        fill_ratio=D("0.30"),
        gallons_removed=900,
        capacity_gallons=1000,
        kind="gravity_interceptor",
        current_frequency_days=90,
        recommendation=rec,
        notice_date=dt.date(2026, 6, 1),
        ruleset=R,
        calendar=cal,
    )
    m.device_status(
        on=dt.date(2026, 7, 1),
        kind="gravity_interceptor",
        assigned_frequency_days=90,
        last_full_pumpout=dt.date(2026, 4, 1),
        latest_measurement=None,
        total_depth_in=48,
        ruleset=R,
        calendar=cal,
    )
    e = c.explanation
    return e.as_record() if hasattr(e, "as_record") else e.as_dict()


best = []
for _ in range(5):
    t = time.perf_counter()
    for _ in range(2000):
        one()
    best.append((time.perf_counter() - t) / 2000 * 1e6)
print(f"{min(best):.0f} µs per manifest (best of 5 x 2000)")
