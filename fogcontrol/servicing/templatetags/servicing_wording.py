"""`{{ flag|flag_text }}`: a review flag's reason in the page's language (servicing/wording.py)."""

from django import template

from fogcontrol.servicing import wording

register = template.Library()


@register.filter
def flag_text(flag):
    return wording.flag_text(flag.code, flag.message)
