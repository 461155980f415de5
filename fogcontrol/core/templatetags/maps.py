"""`{% map points caption="…" noun="spill" %}`: the program's map (core/maps.py), server-drawn.

    {% load maps %}
    {% map map_points caption="Spills matching these filters" noun="spill" skip_to="results-list" %}

`points` is a list of `core.maps.MapPoint`. The caption titles the figure and the SVG; `noun` words
the count of points left off ("3 spills have no usable coordinates"); `skip_to` is the id of the
list that holds the same records, which a keyboard user may jump to past the markers. The map adds
no query: the app hands it plain points.
"""

from django import template

from fogcontrol.core.maps import plot

register = template.Library()


@register.inclusion_tag("core/components/map.html")
def map(points, caption, noun="point", skip_to="", width=640, height=360):  # noqa: A001 (the tag's name)
    drawn = plot(points, width=width, height=height)
    unplaced = ""
    if drawn.unplaced == 1:
        unplaced = f"1 {noun} has no usable coordinates and is not drawn."
    elif drawn.unplaced:
        unplaced = f"{drawn.unplaced:,} {noun}s have no usable coordinates and are not drawn."
    return {"map": drawn, "caption": caption, "noun": noun, "skip_to": skip_to, "unplaced": unplaced}
