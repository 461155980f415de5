"""`{% id_url %}` and `|with_id` write the same link `{% url %}` does, reversed once a page (issue 16)."""

from django.template import engines
from django.urls import reverse

from fogcontrol.core.templatetags.row_links import IdURL

NAMES = [
    "registry:establishment_detail",
    "registry:device_detail",
    "registry:parcel_detail",
    "servicing:manifest_detail",
    "permits:permit_detail",
]


def test_each_rows_link_is_the_url_tags():
    template = engines["django"].from_string(
        "{% load row_links %}{% id_url name as href %}"
        '{% for pk in ids %}<a href="{{ href|with_id:pk }}">{% url name pk %}</a>{% endfor %}'
    )
    for name in NAMES:
        html = template.render({"name": name, "ids": [1, 7, 42, 123456789]})
        links = html.split("<a ")[1:]
        assert len(links) == 4
        for link in links:
            href, text = link.split('"')[1], link.split(">")[1].split("<")[0]
            assert href == text, (name, href, text)


def test_an_id_that_is_not_a_whole_number_is_reversed_as_before():
    url = IdURL("registry:establishment_detail")
    assert url.with_id(5) == reverse("registry:establishment_detail", args=[5])
    assert url.with_id("5") == reverse("registry:establishment_detail", args=["5"])
