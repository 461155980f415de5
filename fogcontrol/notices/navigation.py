"""Documents in the main menu, and the documents section menu (`{% menu "notices" %}`): staff open
the issued documents and the templates; an FSE user its own documents (those served on it)."""

from django.utils.translation import gettext_lazy as _

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.core.roles import STAFF_ROLES, Role
from fogcontrol.notices.roles import DOCUMENT_ISSUERS

READERS = STAFF_ROLES | frozenset({Role.FSE})

register(
    group="notices",
    label=_("Documents"),
    weight=38,
    items=[MenuItem(_("Documents"), "notices:documents", roles=READERS)],
)

register(
    menu="notices",
    group="notices",
    label=_("Documents"),
    items=[
        MenuItem(_("Issued documents"), "notices:documents", roles=READERS),
        MenuItem(_("Write a letter"), "notices:document_new", roles=DOCUMENT_ISSUERS),
        MenuItem(_("Certified mail run"), "notices:mail_run", roles=STAFF_ROLES),
        MenuItem(_("Templates"), "notices:templates", roles=STAFF_ROLES),
    ],
)
