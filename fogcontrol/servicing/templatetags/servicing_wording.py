"""`{{ flag|flag_text }}`: a review flag's reason in the page's language (servicing/wording.py);
`{{ problem.message|refusal_text }}`: a CSV import's stored refusal likewise (servicing/refusals.py)."""

from django import template

from fogcontrol.servicing import refusals, wording

register = template.Library()


@register.filter
def flag_text(flag):
    return wording.flag_text(flag.code, flag.message)


@register.filter
def refusal_text(message):
    return refusals.shown(message)
