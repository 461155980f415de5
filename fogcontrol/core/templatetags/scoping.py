"""Links and buttons shown only when the user may follow them.

``{% load scoping %}`` then ``{% if user|may_view:fse.parcel %}<a …>{% endif %}``: the same
answer the page behind the link gives (``Model.objects.visible_to``), so a page never links to a
404. An unfollowable record is written as plain text instead.
"""

from django import template

from fogcontrol.core.scoping import CHANGE, VIEW, may

register = template.Library()


@register.filter
def may_view(user, record) -> bool:
    return may(user, record, VIEW)


@register.filter
def may_change(user, record) -> bool:
    return may(user, record, CHANGE)
