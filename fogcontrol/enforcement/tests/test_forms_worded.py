"""The enforcement forms state the ordinance's periods from the ruleset in force (L2, L3, P5)."""

import dataclasses

import pytest

from fogcontrol.enforcement import forms_orders
from fogcontrol.enforcement.forms_orders import ComplaintForm, ContinuanceForm, SuspensionNoticeForm
from fogcontrol.program.selectors import ruleset_on, town_today


@pytest.mark.provision("L2")
@pytest.mark.provision("L3")
@pytest.mark.provision("P5")
def test_l2_l3_p5_help_texts_state_the_periods_of_the_ruleset_in_force(town, monkeypatch):
    assert ComplaintForm().fields["hearing_on"].help_text == "P5: within 60 days after service."
    assert SuspensionNoticeForm().fields["hearing_on"].help_text == "L2: 15 to 45 days after mailing."
    assert ContinuanceForm().fields["new_date"].help_text == "L3: continuances total no more than 60 days."

    amended = dataclasses.replace(
        ruleset_on(town_today()),
        complaint_hearing_days=50,
        revocation_hearing_min_days=10,
        revocation_hearing_max_days=40,
        hearing_continuance_max_days=30,
    )
    monkeypatch.setattr(forms_orders, "ruleset_on", lambda day: amended)
    assert ComplaintForm().fields["hearing_on"].help_text == "P5: within 50 days after service."
    assert SuspensionNoticeForm().fields["hearing_on"].help_text == "L2: 10 to 40 days after mailing."
    assert ContinuanceForm().fields["new_date"].help_text == "L3: continuances total no more than 30 days."
