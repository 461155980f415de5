"""Issuing the app's own letter in tests."""

from fogcontrol.core.roles import Role
from fogcontrol.notices.services import document_issue


def issue_letter(town, *, establishment=None, served_on=None, method="first_class_mail", **extra):
    establishment = establishment or town.own_fse
    fields = {
        "acting_user": town.users[Role.FOG_MANAGER],
        "key": "general_letter",
        "establishment": establishment,
        "addressee": f"{establishment.business_name}\n12 Main Street\nLos Robles, CA 94000",
        "context": {
            "business_name": establishment.business_name,
            "body_text": "Please call us about your permit.",
        },
        "service_method": method,
        "served_on": served_on,
    }
    fields.update(extra)
    return document_issue(**fields)
