"""What a user may do to a registry record now, and why not (fogcontrol.core.actions).

The registry services refuse the same steps for the same reasons; pages show only the buttons
allowed here.
"""

from __future__ import annotations

from fogcontrol.core.actions import Actions, Verdict, allowed_if, first_refusal
from fogcontrol.core.permissions import has_role
from fogcontrol.core.roles import REGISTRY_EDITORS
from fogcontrol.registry.models import FoodServiceEstablishment

EDITORS_ONLY = "Only the FOG Manager and inspectors may change the registry."


def _since(establishment: FoodServiceEstablishment) -> str:
    return f" (since {establishment.closed_on:%B %-d, %Y})" if establishment.closed_on else ""


def establishment_close_verdict(establishment: FoodServiceEstablishment) -> Verdict:
    """May the FSE be closed now? Not twice: the one "already closed" check (services, pages, API)."""
    return allowed_if(
        establishment.status != FoodServiceEstablishment.Status.CLOSED,
        f"{establishment} is already closed{_since(establishment)}.",
    )


def establishment_reopen_verdict(establishment: FoodServiceEstablishment) -> Verdict:
    return allowed_if(
        establishment.status == FoodServiceEstablishment.Status.CLOSED, f"{establishment} is already active."
    )


def establishment_actions(user, establishment: FoodServiceEstablishment) -> Actions:
    editor = allowed_if(has_role(user, REGISTRY_EDITORS), EDITORS_ONLY)
    return {
        "edit": editor,
        "add_device": editor,
        "close": first_refusal(editor, establishment_close_verdict(establishment)),
        "reopen": first_refusal(editor, establishment_reopen_verdict(establishment)),
    }
