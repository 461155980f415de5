"""The demo town shows the map and the annual report (issue #17): its establishments, devices and
spills are placed and coloured, and last year's report has figures in every section."""

import json

import pytest

from fogcontrol.accounts.models import User
from fogcontrol.core.roles import Role
from fogcontrol.demo.run import seed_demo
from fogcontrol.program.selectors import town_today
from fogcontrol.reports.annual import annual_report
from fogcontrol.reports.forms import MapFilterForm
from fogcontrol.reports.map_data import features


@pytest.fixture
def media_in_tmp(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.mark.django_db
def test_the_demo_town_fills_the_map_and_the_report(media_in_tmp):
    seed_demo(establishments=40, seed=7)
    manager = User.objects.filter(role=Role.FOG_MANAGER).first()
    form = MapFilterForm({})
    assert form.is_valid()
    placed = [f for f in features(manager, form.filters()) if f["geometry"]]
    layers = {f["properties"]["layer"] for f in placed}
    assert layers == {"establishment", "device", "spill"}
    assert len({f["properties"].get("permit_status") for f in placed} - {None}) >= 2
    assert (
        len({f["properties"]["service_status"] for f in placed if f["properties"]["layer"] == "device"}) >= 2
    )
    json.dumps(placed)  # serialisable as the export writes it
    report = annual_report(manager, town_today().year - 1)
    by_section = {section.key: sum(f.value for f in section.figures) for section in report.sections}
    assert all(by_section[key] > 0 for key in ("program", "permits", "inspections", "spills", "grease")), (
        by_section
    )
