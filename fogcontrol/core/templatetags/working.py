"""The rules' workings in the page's language (fogcontrol/core/working.py, issue 18):

    {% load working %}
    <pre class="explanation"{% if not explanation|working_in_language %} lang="en"{% endif %}>{{ explanation|working_text }}</pre>
    {% for step, in_language in explanation|working_steps %}<li{% if not in_language %} lang="en"{% endif %}>{{ step }}</li>{% endfor %}

``explanation`` is an ``Explanation`` or what a record stored (``as_dict``/``as_record``).
"""

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext

from fogcontrol.core import working

register = template.Library()


@register.filter
def working_text(value):
    return working.working_text(value)


@register.filter
def working_steps(value):
    return working.working_steps(value)


@register.filter
def working_in_language(value):
    return working.working_is_translated(value)


@register.filter
def step_said(value):
    """One sentence (a verdict, a flag, a reason) in the page's language: ``{{ sizing.verdict|step_said }}``."""
    return working.said(value)


@register.filter
def step_in_language(value):
    """Whether ``step_said`` reads in the page's language (else mark it ``lang="en"``)."""
    return working.is_translated(value)


@register.filter
def working_provisions(value):
    """ "Provisions: E1, E2" in the page's language (``core/components/working.html``); a provision
    named in the ordinance's English words ("Counting days") is marked ``lang="en"``."""
    explanation = working.as_explanation(value)
    provisions = ", ".join(explanation.provisions if explanation else ())
    if not provisions or not any(c.islower() for c in provisions):
        return working.working_provisions(value)
    label = gettext("Provisions: %(provisions)s").replace("{", "{{").replace("}", "}}")
    return format_html(
        label.replace("%(provisions)s", "{}"), format_html('<span lang="en">{}</span>', provisions)
    )
