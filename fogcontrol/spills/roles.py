"""Who may do what with spills (I1, I2, J1-J3, N1, N2). Scope (which records) is ``querysets.py``;
these are the roles the services check."""

from fogcontrol.core.roles import Role

# SSO records, links to FSEs, costs and imports: the FOG Manager and inspectors.
SPILL_RECORDERS = frozenset({Role.FOG_MANAGER, Role.INSPECTOR})
# J1: the FSE reports in the portal; staff log a phone call. J2: the FSE (or staff for it) writes.
REPORTERS = frozenset({Role.FSE, Role.FOG_MANAGER, Role.INSPECTOR})
# Only the FOG Manager applies an import of the State's files.
IMPORT_APPLIERS = frozenset({Role.FOG_MANAGER})

SPILL_STEPS = {
    "create": (SPILL_RECORDERS, "Only the FOG Manager and inspectors record spills."),
    "link": (SPILL_RECORDERS, "Only the FOG Manager and inspectors link FSEs to spills."),
    "cost": (SPILL_RECORDERS, "Only the FOG Manager and inspectors record the Town's costs."),
}
REPORT_STEPS = {
    "create": (REPORTERS, "Only the FSE and Town staff report spills."),
    "written": (REPORTERS, "Only the FSE and Town staff send the written report."),
}
IMPORT_STEPS = {
    "create": (SPILL_RECORDERS, "Only the FOG Manager and inspectors import the State's spill files."),
}
