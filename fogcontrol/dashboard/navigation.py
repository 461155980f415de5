"""The dashboard's item in the servicing menu: the bulk review of manifest flags (staff). The
"today" panels are the staff home (the main menu's Home); the search box is in the header."""

from django.utils.translation import gettext_lazy as _

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.core.roles import STAFF_ROLES

register(
    menu="servicing",
    group="servicing",
    label=_("Servicing"),
    items=[MenuItem(_("Review flags in bulk"), "dashboard:flag_queue", roles=STAFF_ROLES)],
)
