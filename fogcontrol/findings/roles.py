"""Who may record and close findings: the FOG Manager and inspectors (authorised enforcement
officers, D1, D8). Scope (which findings) is ``querysets.py``; this is the role."""

from fogcontrol.core.roles import Role

FINDING_RECORDERS = frozenset({Role.FOG_MANAGER, Role.INSPECTOR})
