"""Pages state the Town's numbers from the ruleset in force, so an amendment changes what they say."""

import pytest

from fogcontrol.core.roles import Role
from fogcontrol.program.models import RulesetVersion
from fogcontrol.program.selectors import town_today

pytestmark = pytest.mark.django_db


@pytest.mark.provision("E3")
def test_e3_the_service_status_page_states_the_fill_limit_in_force(client, town):
    client.force_login(town.users[Role.FOG_MANAGER])
    assert "over 25% (E3, E6)" in client.get("/servicing/").content.decode()
    RulesetVersion.objects.create(
        effective_from=town_today(), label="Amendment", values={"fill_limit_ratio": "0.2"}
    )
    assert "over 20% (E3, E6)" in client.get("/servicing/").content.decode()


@pytest.mark.provision("B7")
def test_b7_the_device_page_states_the_notice_period_in_force(client, town):
    client.force_login(town.users[Role.FOG_MANAGER])
    page = f"/servicing/devices/{town.own_device.pk}/"
    assert "no sooner than 10 days later (B7)" in client.get(page).content.decode()
    RulesetVersion.objects.create(
        effective_from=town_today(), label="Amendment", values={"frequency_change_notice_days": 14}
    )
    assert "no sooner than 14 days later (B7)" in client.get(page).content.decode()
