"""A record's link in every row of a list, reversed once a page (issue 16).

    {% load row_links %}
    {% id_url "registry:establishment_detail" as fse_href %}
    {% for fse in rows %}<a href="{{ fse_href|with_id:fse.pk }}">…{% endfor %}

``{% url 'registry:establishment_detail' fse.pk %}`` in the loop reverses the name once a row
(25-50 a page); ``id_url`` reverses it once with a stand-in id and ``with_id`` puts each row's id in
its place: the same text, for a URL whose one argument is a whole number (``<int:pk>``).
"""

from django import template
from django.urls import reverse

register = template.Library()

_STAND_IN = 987654321987654321  # a whole number no record has; it must appear once in the URL


class IdURL:
    """The URL ``name`` reverses to for any id: what comes before the id and what after."""

    def __init__(self, name: str):
        self.name = name
        url = reverse(name, args=[_STAND_IN])
        head, stand_in, tail = url.partition(str(_STAND_IN))
        self.parts = (head, tail) if stand_in and str(_STAND_IN) not in tail else None

    def with_id(self, pk) -> str:
        if self.parts is None or not isinstance(pk, int):
            return reverse(self.name, args=[pk])
        return f"{self.parts[0]}{pk}{self.parts[1]}"


@register.simple_tag
def id_url(name: str) -> IdURL:
    return IdURL(name)


@register.filter
def with_id(url: IdURL, pk) -> str:
    return url.with_id(pk)
