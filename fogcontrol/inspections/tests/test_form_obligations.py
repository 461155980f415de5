"""An inspector's form pulls up what the FSE owes on site (issue 11): the records app's obligations
list, folded in a panel under "Records reviewed on site", late items first."""

import pytest
from django.urls import reverse

from fogcontrol.core.roles import Role
from fogcontrol.inspections.tests.helpers import scheduled
from fogcontrol.records import services
from fogcontrol.records.obligations import obligations_for
from fogcontrol.records.tests.helpers import days_ago


@pytest.mark.provision("C4")
def test_c4_the_inspection_form_shows_the_fses_obligations_with_the_late_training_first(client, town):
    inspector = town.users[Role.INSPECTOR]
    services.employee_add(
        establishment=town.own_fse,
        name="Alex Moreno",
        hire_date=days_ago(10),
        acting_user=town.users[Role.FSE],
    )
    inspection = scheduled(town.own_fse, inspector)
    client.force_login(inspector)
    page = client.get(reverse("inspections:edit", args=[inspection.pk])).content.decode()
    records = page[page.index('id="records"') :]
    records = records[: records.index("</section>")]
    assert '<details class="obligations-panel" id="obligations">' in records  # folded until opened
    summary = records[records.index("<summary>") : records.index("</summary>")]
    late = [item for item in obligations_for(town.own_fse, on=days_ago(0)) if item.status == "late"]
    assert f"What {town.own_fse.business_name} owes: {len(late)} late" in summary
    assert "Train new employee Alex Moreno" in records
    # Above the section's checklist, which asks about the same records.
    assert records.index("Train new employee Alex Moreno") < records.index("Waste-oil pickup records")
    assert reverse("records:obligations", args=[town.own_fse.pk]) in records
