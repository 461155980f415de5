"""A spill linked to an FSE shows on the FSE's page (through the spills list filtered to it),
feeds the inspection risk order (D8: "spills linked to the establishment", J1), and a FOG-caused one
opens a finding enforcement can take up (I1). Staff confirm address matches; none is assumed."""

import datetime as dt

import pytest
from django.urls import reverse

from fogcontrol.core.roles import Role
from fogcontrol.inspections.due import inspections_due
from fogcontrol.program.selectors import town_today
from fogcontrol.spills.matching import address_candidates, address_score
from fogcontrol.spills.selectors import spill_detail
from fogcontrol.spills.tests.helpers import fog_spill
from fogcontrol.testing.auth import force_login_verified

pytestmark = pytest.mark.django_db


@pytest.mark.provision("J1")
def test_j1_a_linked_spill_raises_the_fse_in_the_inspection_risk_order_with_its_reason(town):
    manager = town.users[Role.FOG_MANAGER]
    later = town_today() + dt.timedelta(days=400)

    def risk(fse):
        return next(
            item.risk for item in inspections_due(manager, on=later) if item.establishment_id == fse.pk
        )

    before = risk(town.own_fse).score
    fog_spill(town, links=[(town.own_fse, "upstream")])
    after = risk(town.own_fse)
    assert after.score > before
    assert any("spill linked to the establishment" in reason.text for reason in after.reasons)


@pytest.mark.provision("I1")
def test_i1_the_fse_page_leads_to_its_spills_and_the_fse_user_sees_its_linked_spill(client, town):
    spill = fog_spill(town, links=[(town.own_fse, "upstream")])
    fog_spill(town, address="9 Other Road")  # linked to nobody: not the FSE's
    force_login_verified(client, town.users[Role.FSE])
    page = client.get(f"/registry/establishments/{town.own_fse.pk}/").content.decode()
    link = f"{reverse('spills:list')}?establishment={town.own_fse.pk}"
    assert link in page
    listed = client.get(link).content.decode()
    assert "100 Main Street" in listed and "9 Other Road" not in listed
    assert client.get(reverse("spills:detail", args=[spill.pk])).status_code == 200


def test_i1_address_matches_are_offered_with_a_score_never_linked(town):
    town.own_fse.site_address = "100 MAIN ST"
    town.own_fse.save()
    spill = fog_spill(town, address="100 Main Street")
    manager = town.users[Role.FOG_MANAGER]
    from fogcontrol.registry.models import FoodServiceEstablishment

    candidates = address_candidates(spill_detail(manager, spill.pk), FoodServiceEstablishment.objects.all())
    assert [(c.establishment, c.score) for c in candidates] == [(town.own_fse, 100)]
    assert not spill.links.exists()
    assert address_score("100 Main Street", "101 Main Street") == 0
