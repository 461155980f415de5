"""The frequency card on a device's history finds the pending change of frequency (B7) among the
history's changes, not by a query of its own (issue 16), and finds the same one the card reads alone
(the permit page's): the one neither applied nor withdrawn, with who was told."""

import pytest
from django.test import Client, RequestFactory

from fogcontrol.core.roles import Role
from fogcontrol.servicing import selectors
from fogcontrol.servicing.services import frequency_change
from fogcontrol.servicing.templatetags.servicing_frequency import frequency_change_card


def _card(manager, device, **changes):
    request = RequestFactory().get("/")
    request.user = manager
    return frequency_change_card({"request": request}, device, **changes)


@pytest.mark.provision("B7")
def test_b7_the_device_page_card_finds_the_pending_change_among_the_history_changes(town):
    manager = town.users[Role.FOG_MANAGER]
    device = town.own_device
    frequency_change(device=device, acting_user=manager, to_days=60, reason="Fryer added")
    pending = frequency_change(device=device, acting_user=manager, to_days=120, reason="Data")  # replaces it

    history = selectors.device_history(manager, device.pk)
    assert [change.status for change in history.frequency_changes] == ["pending", "withdrawn"]
    from_history = _card(manager, history.device, changes=history.frequency_changes)
    alone = _card(manager, history.device)
    assert from_history["pending"].pk == alone["pending"].pk == pending.pk
    assert from_history["told"] == alone["told"] and alone["told"]

    client = Client()
    client.force_login(manager)
    page = client.get(f"/servicing/devices/{device.pk}/").content.decode()
    assert "Pending:</strong> every 120 days" in page
    assert f'action="/servicing/frequency-changes/{pending.pk}/withdraw/"' in page


@pytest.mark.provision("B7")
def test_b7_without_a_pending_change_the_card_shows_none(town):
    manager = town.users[Role.FOG_MANAGER]
    history = selectors.device_history(manager, town.own_device.pk)
    assert history.frequency_changes == []
    assert _card(manager, history.device, changes=history.frequency_changes)["pending"] is None


def test_a_history_cut_at_its_limit_leaves_the_card_to_read_the_pending_change(town):
    manager = town.users[Role.FOG_MANAGER]
    device = town.own_device
    frequency_change(device=device, acting_user=manager, to_days=60, reason="Fryer added")
    pending = frequency_change(device=device, acting_user=manager, to_days=120, reason="Data")

    cut = selectors.device_history(manager, device.pk, limit_events=2)
    assert cut.frequency_changes is None  # as many as the limit: there may be more
    assert _card(manager, cut.device, changes=cut.frequency_changes)["pending"].pk == pending.pk
    assert len(selectors.device_history(manager, device.pk, limit_events=3).frequency_changes) == 2
