"""A small bar chart drawn on the server as SVG (as core/maps.py draws the map): no script, no
library, nothing fetched. `bars(series)` places one bar per month; the template
(`dashboard/partials/chart.html`) names each bar by its `<title>`, titles and describes the chart
for screen readers, and puts the same numbers in a table beneath it."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

from django.template.defaultfilters import floatformat
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from fogcontrol.core.templatetags.days import day

WIDTH = 300
HEIGHT = 110
TOP = 10  # room above the tallest bar
BOTTOM = 20  # room for the month letters (13 units tall: static/fogcontrol/app.css)
GAP = 4


@dataclasses.dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str  # "Mar 2026: 12 manifests"
    tick: str  # "M"
    tick_x: float
    value: Decimal | int


@dataclasses.dataclass(frozen=True)
class Chart:
    width: int
    height: int
    baseline: float
    bars: list[Bar]
    peak: Decimal | int


def value_words(value, unit: str) -> str:
    if unit == "$":
        return f"${Decimal(value):,.2f}"
    return f"{value:,} {unit}{'' if value == 1 else 's'}"


def bars(series, width: int = WIDTH, height: int = HEIGHT) -> Chart:
    months = series.months
    peak = max((value for _month, value in months), default=0)
    baseline = height - BOTTOM
    room = baseline - TOP
    step = width / max(len(months), 1)
    drawn = []
    for index, (month, value) in enumerate(months):
        tall = float(value) / float(peak) * room if peak else 0.0
        x = index * step + GAP / 2
        drawn.append(
            Bar(
                x=round(x, 1),
                y=round(baseline - tall, 1),
                width=round(step - GAP, 1),
                height=round(tall, 1),
                label=f"{month:%b %Y}: {value_words(value, series.unit)}",
                tick=f"{month:%b}"[0],
                tick_x=round(x + (step - GAP) / 2, 1),
                value=value,
            )
        )
    return Chart(width=width, height=height, baseline=baseline, bars=drawn, peak=peak)


def _one(number: float) -> str:
    """A coordinate as `{{ x|floatformat:"1u" }}` writes it: one decimal, a point (already rounded)."""
    return f"{number:.1f}"


def bars_markup(chart: Chart) -> SafeString:
    """The SVG of the bars, each named by its <title> (text escaped as the template would)."""
    tick_y = chart.height - 4
    return mark_safe(  # nosec B308 B703: only numbers and escaped text
        "".join(
            f'<g class="trend-bar"><title>{conditional_escape(bar.label)}</title>'
            f'<rect x="{_one(bar.x)}" y="{_one(bar.y)}" width="{_one(bar.width)}" height="{_one(bar.height)}"/>'
            f'<text x="{_one(bar.tick_x)}" y="{tick_y}" text-anchor="middle" aria-hidden="true">'
            f"{conditional_escape(bar.tick)}</text></g>"
            for bar in chart.bars
        )
    )


def rows_markup(series) -> SafeString:
    """The table's rows beneath the chart: the month (`|date:"M Y"`, in the page's language, each
    month written once: core's `|day`) and its value (dollars as `|floatformat:"2g"`, counts as
    `{{ value }}`)."""
    money = series.unit == "$"
    return mark_safe(  # nosec B308 B703: only numbers and escaped text
        "".join(
            f"<tr><td>{conditional_escape(day(month, 'M Y'))}</td><td>"
            f"{'$' + floatformat(value, '2g') if money else conditional_escape(localize(value))}</td></tr>"
            for month, value in series.months
        )
    )
