"""Who may act on messages and invitations (scope is ``querysets.py``: staff see all)."""

from fogcontrol.core.roles import Role

# Record a bounce, run the reminders by hand.
MESSAGE_MANAGERS = frozenset({Role.FOG_MANAGER, Role.BILLING_CLERK})
# Invite outside users, withdraw an invitation.
INVITERS = frozenset({Role.FOG_MANAGER})
