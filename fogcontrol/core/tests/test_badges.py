"""`{% badge %}` writes what `{% include "core/components/status_badge.html" with … %}` writes, kept per
label, tone and language (issue 16)."""

from django.template import engines
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy, override

from fogcontrol.core.templatetags import badges

OURS = engines["django"].from_string(
    "{% load badges %}{% for label, tone in values %}{% if tone is None %}{% badge label %}"
    "{% else %}{% badge label tone=tone %}{% endif %}\n{% endfor %}"
)
INCLUDED = engines["django"].from_string(
    "{% for label, tone in values %}{% if tone is None %}"
    '{% include "core/components/status_badge.html" with label=label tone="" %}'
    '{% else %}{% include "core/components/status_badge.html" with label=label tone=tone %}{% endif %}\n'
    "{% endfor %}"
)
VALUES = [
    ("Active", "ok"),
    ("Active", None),
    ("Closed", None),
    ("Expired", "bad"),
    ("<b>Fish & chips</b>", "warn"),
    (mark_safe("<b>safe</b>"), "ok"),
    ("<b>safe</b>", "ok"),  # the same text, not safe: escaped, not the kept safe one
    ("Active", '"><script>'),
    (gettext_lazy("Active"), "ok"),
    (None, None),
    ("", "ok"),
    (3, "ok"),
]


def test_badge_writes_what_the_include_writes_in_each_language():
    badges._rendered.clear()
    for language in ["en", "es", "en", "es"]:  # the second round from the kept badges
        with override(language):
            assert OURS.render({"values": VALUES}) == INCLUDED.render({"values": VALUES}), language
    assert len(badges._rendered) > 0


def test_badge_escapes_as_the_template_does_without_autoescape():
    badges._rendered.clear()
    off, on = "{% autoescape off %}", "{% endautoescape %}"
    ours = engines["django"].from_string(
        "{% load badges %}" + off + '{% badge "<i>x</i>" tone="ok" %}{% badge label tone="ok" %}' + on
    )
    included = engines["django"].from_string(
        off
        + '{% include "core/components/status_badge.html" with label="<i>x</i>" tone="ok" %}'
        + '{% include "core/components/status_badge.html" with label=label tone="ok" %}'
        + on
    )
    for _ in range(2):  # the second from the kept badges
        assert ours.render({"label": "<i>y</i>"}) == included.render({"label": "<i>y</i>"})
    assert any(key[-1] is False for key in badges._rendered)
