"""The rules' workings in the page's language (fogcontrol/core/working.py, issue 18):

    {% load working %}
    <pre class="explanation"{% if not explanation|working_in_language %} lang="en"{% endif %}>{{ explanation|working_text }}</pre>
    {% for step, in_language in explanation|working_steps %}<li{% if not in_language %} lang="en"{% endif %}>{{ step }}</li>{% endfor %}
    <span{% if not sentence|said_in_language %} lang="en"{% endif %}>{{ sentence|said }}</span>

``explanation`` is an ``Explanation`` or what a record stored (``as_dict``/``as_record``).
"""

from django import template

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
def said(value):
    """One sentence of a working (a step, a factor, a label) in the page's language."""
    return working.said(value)


@register.filter
def said_in_language(value):
    """Whether ``value|said`` reads in the page's language (False: its English, to mark lang="en")."""
    return working.is_translated(value)


@register.filter
def working_provisions(value):
    """ "Provisions: E1, Counting days" in the page's language (``core/components/working.html``)."""
    return working.working_provisions(value)
