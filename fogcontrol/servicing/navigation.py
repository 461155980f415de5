"""Servicing in the main menu, and the servicing section menu (`{% menu "servicing" %}`).

Each item shows only to those its page answers: submitting manifests and the CSV upload to
`can_submit_manifest` (not read-only staff), review work to Town staff, requirements and E5
requests to staff and the devices' owners (never to a hauler)."""

from django.utils.translation import gettext_lazy as _

from fogcontrol.core.navigation import MenuItem, register
from fogcontrol.core.roles import STAFF_ROLES, Role
from fogcontrol.servicing.permissions import can_submit_manifest

OWNERS_AND_STAFF = STAFF_ROLES | {Role.FSE, Role.PROPERTY_OWNER}

register(
    group="servicing",
    label=_("Servicing"),
    weight=30,
    items=[
        MenuItem(_("Servicing"), "servicing:home", roles=OWNERS_AND_STAFF),
        # A hauler's servicing pages are its manifests and its customers' devices.
        MenuItem(_("Manifests"), "servicing:home", roles=frozenset({Role.HAULER})),
    ],
)

register(
    menu="servicing",
    group="servicing",
    label=_("Servicing"),
    items=[
        MenuItem(_("Service status"), "servicing:home"),
        MenuItem(_("Manifests"), "servicing:manifest_list"),
        MenuItem(_("Submit a manifest"), "servicing:manifest_new", visible=can_submit_manifest),
        MenuItem(_("CSV upload"), "servicing:import_list", visible=can_submit_manifest),
        MenuItem(_("Flags to review"), "servicing:flag_list", roles=STAFF_ROLES),
        MenuItem(_("Requirements"), "servicing:requirement_list", roles=OWNERS_AND_STAFF),
        MenuItem(_("Frequency requests"), "servicing:request_list", roles=OWNERS_AND_STAFF),
        MenuItem(_("Records retention"), "servicing:retention", roles=STAFF_ROLES),
    ],
)
