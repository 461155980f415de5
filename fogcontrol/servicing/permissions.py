"""Who may do what in servicing. Scope (which records) is the selectors' job; this is the role.

Jobs and commands act under a label (a string such as "seed_demo" or "servicing.nightly"), as in
the registry services: they are the program itself, and pass every role check.
"""

from fogcontrol.core.roles import Role

# F1: manifests are submitted by the permittee or by the servicer on its behalf; Town staff key
# in paper manifests.
MANIFEST_SUBMITTERS = frozenset(
    {Role.HAULER, Role.FSE, Role.PROPERTY_OWNER, Role.FOG_MANAGER, Role.INSPECTOR}
)


def is_system(actor) -> bool:
    return isinstance(actor, str)


def can_submit_manifest(user) -> bool:
    if is_system(user):
        return True
    return user.is_authenticated and (user.is_superuser or user.role in MANIFEST_SUBMITTERS)


def can_review(user) -> bool:
    """Review flags, record inspection readings, close requirements: the FOG Manager and inspectors."""
    if is_system(user):
        return True
    return user.is_authenticated and user.has_role(Role.FOG_MANAGER, Role.INSPECTOR)


def can_set_frequency(user) -> bool:
    """E1: the FOG Manager raises or lowers a device's frequency; E5 requests are decided by them."""
    if is_system(user):
        return True
    return user.is_authenticated and user.has_role(Role.FOG_MANAGER)


def can_request_frequency(user) -> bool:
    """E5: the owner (the FSE, or the property owner for a shared device) asks in writing."""
    return user.is_authenticated and (user.role in (Role.FSE, Role.PROPERTY_OWNER) or can_set_frequency(user))
