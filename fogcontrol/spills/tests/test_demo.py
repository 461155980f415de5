"""The spills part of the demo town: years of spills, some linked to its FSEs, costs, and the demo
FSE's notices, one of them overdue and found by the sweep (I1, J1, J2)."""

import pytest

from fogcontrol.demo.run import seed_demo
from fogcontrol.findings.models import Finding
from fogcontrol.spills.models import Spill, SpillCost, SpillReport


@pytest.mark.provision("J2")
@pytest.mark.django_db
def test_j2_demo_town_has_years_of_spills_linked_fses_costs_and_an_overdue_written_report(media_in_tmp):
    result = seed_demo(establishments=40, seed=7)
    assert ("fogcontrol.spills.demo.seed", True) in [tuple(row[:2]) for row in result.seeders]
    years = {spill.started_at.year for spill in Spill.objects.all()}
    assert len(years) >= 3 and Spill.objects.count() >= 30
    assert Spill.objects.filter(links__isnull=False).distinct().count() >= 5
    assert len(set(Spill.objects.values_list("category", flat=True))) >= 3
    assert (
        SpillCost.objects.filter(provision="N2").exists()
        and SpillCost.objects.filter(provision="N1").exists()
    )
    assert SpillReport.objects.filter(written__isnull=False).exists()
    assert Finding.objects.filter(source=Finding.Source.SPILL, provision="J2").count() == 1
    assert Finding.objects.filter(source=Finding.Source.SPILL, provision="I1").exists()
