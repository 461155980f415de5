"""Permits' panel on the registry's establishment page (fogcontrol.core.panels): the FOG permit and
where it stands (B1, B6), linking to it, or that there is none."""

from fogcontrol.core import panels
from fogcontrol.permits.models import Permit
from fogcontrol.permits.selectors import latest_permits_first, permit_standing
from fogcontrol.program.selectors import ruleset_on, town_today


def establishment_permit(user, establishment):
    """B1, B6: the establishment's latest permit and its standing today; two queries."""
    # The columns the panel and the standing read, not the permit's terms and conditions (issue 16).
    permits = Permit.objects.filter(establishment=establishment)
    permit = (
        latest_permits_first(permits).only("pk", "number", "status", "status_reason", "valid_until").first()
    )
    if permit is None:
        return {"permit": None}
    today = town_today()
    return {
        "permit": permit,
        "standing": permit_standing(permit, today, ruleset_on(today)),
    }


def register() -> None:
    panels.register(
        "registry.establishment", key="permits.permit", template="permits/partials/panel_establishment.html",
        build=establishment_permit, order=10,
    )  # fmt: skip
