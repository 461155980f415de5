"""The rules' workings in the page's language (fogcontrol/core/working.py, issue 18):

    {% load working %}
    <pre class="explanation"{% if not explanation|working_in_language %} lang="en"{% endif %}>{{ explanation|working_text }}</pre>
    {% for step, in_language in explanation|working_steps %}<li{% if not in_language %} lang="en"{% endif %}>{{ step }}</li>{% endfor %}
    <span{% if not sentence|said_in_language %} lang="en"{% endif %}>{{ sentence|said }}</span>
    {{ explanation|working_provisions }}   ("Provisions: E1, Counting days", core/components/working.html)

``explanation`` is an ``Explanation`` or what a record stored (``as_dict``/``as_record``); a
sentence is a step, a factor or a label said with ``rules.explain.say``.
"""

from django import template

from fogcontrol.core import working

register = template.Library()

# Each filter is the function of core/working.py of the same meaning, registered as it is.
register.filter("working_text", working.working_text)
register.filter("working_steps", working.working_steps)
register.filter("working_in_language", working.working_is_translated)
register.filter("said", working.said)
register.filter("said_in_language", working.is_translated)
register.filter("working_provisions", working.working_provisions)
