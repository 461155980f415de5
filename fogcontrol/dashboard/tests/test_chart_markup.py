"""The trend charts' bars and table rows are written in Python (charts.bars_markup, rows_markup; issue
16: the template's loops were most of the staff home's Python): the text is what the template's
loops wrote, kept here as the reference, in English and Spanish, for counts, dollars, zeros and
text to escape."""

import datetime as dt
from decimal import Decimal

import pytest
from django.template import engines
from django.utils import translation

from fogcontrol.dashboard.charts import bars, bars_markup, rows_markup
from fogcontrol.dashboard.trends import Series, month_starts

# The template's loops before (dashboard/partials/chart.html).
BARS = (
    '{% for bar in chart.bars %}<g class="trend-bar"><title>{{ bar.label }}</title><rect x="{{ bar.x|floatformat:"1u" }}" '
    'y="{{ bar.y|floatformat:"1u" }}" width="{{ bar.width|floatformat:"1u" }}" height="{{ bar.height|floatformat:"1u" }}"/>'
    '<text x="{{ bar.tick_x|floatformat:"1u" }}" y="{{ chart.height|add:"-4" }}" text-anchor="middle" '
    'aria-hidden="true">{{ bar.tick }}</text></g>{% endfor %}'
)
ROWS = (
    '{% for month, value in series.months %}<tr><td>{{ month|date:"M Y" }}</td><td>{% if unit == "$" %}'
    '${{ value|floatformat:"2g" }}{% else %}{{ value }}{% endif %}</td></tr>{% endfor %}'
)

STARTS = month_starts(dt.date(2026, 12, 1))
SERIES = [
    Series(
        "manifests", "Manifests <filed> & more", "manifest", [(s, i * 1371) for i, s in enumerate(STARTS)]
    ),
    Series(
        "payments",
        "Payments",
        "$",
        [(s, Decimal("1234.5") * i if i % 3 else 0) for i, s in enumerate(STARTS)],
    ),
    Series("spills", "Spills", "spill", [(s, 0) for s in STARTS]),
    Series("inspections", "Inspections", "inspection", [(s, int(i == 4)) for i, s in enumerate(STARTS)]),
    Series(
        "payments",
        "Payments",
        "$",
        [(s, Decimal("1000000.05") if i else Decimal("0.00")) for i, s in enumerate(STARTS)],
    ),
]


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("series", SERIES, ids=lambda s: f"{s.key}-{s.total}")
def test_the_markup_is_what_the_template_wrote(series, language):
    engine = engines["django"]
    chart = bars(series)
    with translation.override(language):
        context = {"chart": chart, "series": series, "unit": series.unit}
        assert bars_markup(chart) == engine.from_string(BARS).render(context)
        assert rows_markup(series) == engine.from_string(ROWS).render(context)
