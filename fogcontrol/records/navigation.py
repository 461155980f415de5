"""Records in the main menu: the FSE's kept records (C2, C4, C5, D7, E9, F2, F3, F6).

Staff open the review queue (the records home would only redirect them there, and a menu link
answers its page, not a redirect); the establishments' own users open the records home; a hauler
or recycler sees only the waste-oil pickups it recorded (C2). The BMP materials (C4 training sheet,
C7 signs) are for the FSE, the property owner and staff."""

from django.utils.translation import gettext_lazy as _

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.core.roles import STAFF_ROLES, Role
from fogcontrol.records.roles import BMP_READERS

register(
    group="records",
    label=_("Records"),
    weight=35,
    items=[
        MenuItem(_("Records"), "records:review_queue", roles=STAFF_ROLES),
        MenuItem(_("Records"), "records:home", roles=frozenset({Role.FSE, Role.PROPERTY_OWNER})),
        MenuItem(_("Oil pickups"), "records:pickups", roles=frozenset({Role.HAULER})),
        # C4, C7: the training sheet and kitchen signs to print, in English or Spanish.
        MenuItem(_("BMP materials"), "records:bmp", roles=BMP_READERS),
    ],
)
