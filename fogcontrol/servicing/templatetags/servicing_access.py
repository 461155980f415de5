"""What a user may do in servicing, for templates: a button shows only when its page would answer.

``{% load servicing_access %}{% if user|may_submit_manifests %}…``: the same check the manifest
form and the CSV upload make (fogcontrol.servicing.permissions), on every page that includes the
servicing navigation, whatever that page's own context holds.
"""

from django import template

from fogcontrol.servicing.permissions import can_submit_manifest

register = template.Library()


@register.filter
def may_submit_manifests(user) -> bool:
    return can_submit_manifest(user)
