"""`{% trend_chart series %}`: a series of the last twelve months as a small server-drawn bar chart
(dashboard/charts.py), with its title, description and a table of the same numbers. The bars and
the table's rows are written here in one pass (charts.markup), not by the template's loops: the same
text, a tenth of the template engine's work (four charts on the staff home, twelve bars each)."""

from django import template

from fogcontrol.dashboard.charts import bars, bars_markup, rows_markup, value_words

register = template.Library()


@register.inclusion_tag("dashboard/partials/chart.html")
def trend_chart(series):
    chart = bars(series)
    first, last = series.months[0][0], series.months[-1][0]
    summary = (
        f"{value_words(series.total, series.unit)} from {first:%B %Y} to {last:%B %Y}; "
        f"the most in one month: {value_words(chart.peak, series.unit)}."
    )
    return {
        "series": series,
        "chart": chart,
        "summary": summary,
        "unit": series.unit,
        "bars": bars_markup(chart),
        "rows": rows_markup(series),
    }
