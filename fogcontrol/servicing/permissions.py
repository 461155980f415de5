"""Who may do what in servicing. Scope (which records) is the selectors' job; this is the role.

Each rule is a set of roles, checked by the one role check (fogcontrol.core.permissions): services
refuse with ``require_role(acting_user, ROLES, message)``; pages ask ``has_role`` to decide what to
show. Jobs and commands act under a label (a string such as "seed_demo" or "servicing.nightly"):
they are the program itself, and pass every role check.
"""

from fogcontrol.core.permissions import has_role
from fogcontrol.core.roles import Role

# F1: manifests are submitted by the permittee or by the servicer on its behalf; Town staff key
# in paper manifests.
MANIFEST_SUBMITTERS = frozenset(
    {Role.HAULER, Role.FSE, Role.PROPERTY_OWNER, Role.FOG_MANAGER, Role.INSPECTOR}
)
# Review flags, record inspection readings, close requirements.
REVIEWERS = frozenset({Role.FOG_MANAGER, Role.INSPECTOR})
# E1: the FOG Manager raises or lowers a device's frequency, and decides E5 requests.
FREQUENCY_SETTERS = frozenset({Role.FOG_MANAGER})
# E5: the owner (the FSE, or the property owner for a shared device) asks in writing; the FOG
# Manager may file one on their behalf.
FREQUENCY_REQUESTERS = frozenset({Role.FSE, Role.PROPERTY_OWNER}) | FREQUENCY_SETTERS


def can_submit_manifest(user) -> bool:
    return has_role(user, MANIFEST_SUBMITTERS)


def can_review(user) -> bool:
    """Review flags, record inspection readings, close requirements: the FOG Manager and inspectors."""
    return has_role(user, REVIEWERS)


def can_set_frequency(user) -> bool:
    """E1: the FOG Manager raises or lowers a device's frequency; E5 requests are decided by them."""
    return has_role(user, FREQUENCY_SETTERS)


def can_request_frequency(user) -> bool:
    """E5: the owner (the FSE, or the property owner for a shared device) asks in writing."""
    return has_role(user, FREQUENCY_REQUESTERS)


# Who may take each step at all, by step: a role outside it is refused (403) before its input is
# read, in pages and API alike (fogcontrol.core.api.views.StepRoles). The services check again.
STEP_ROLES: dict[str, tuple[frozenset, str]] = {
    "submit_manifest": (MANIFEST_SUBMITTERS, "Your role may not submit manifests."),
    "review": (
        REVIEWERS,
        "Only the FOG Manager and inspectors review flags, record readings and close requirements.",
    ),
    "set_frequency": (FREQUENCY_SETTERS, "Only the FOG Manager changes a device's service frequency (E1)."),
    "request_frequency": (
        FREQUENCY_REQUESTERS,
        "Only the device's owner (the FSE, or the property owner for a shared device) asks for a frequency (E5).",
    ),
    "decide_request": (FREQUENCY_SETTERS, "Only the FOG Manager decides frequency requests (E5)."),
    "retention": (frozenset({Role.FOG_MANAGER}), "Only the FOG Manager places holds and purges records."),
}
