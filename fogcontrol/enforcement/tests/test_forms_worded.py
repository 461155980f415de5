"""The enforcement forms and letters state the ordinance's periods from the ruleset in force (L2, L3, P5,
P6)."""

import dataclasses

import pytest

from fogcontrol.enforcement import documents_orders, forms_orders
from fogcontrol.enforcement.forms_orders import ComplaintForm, ContinuanceForm, SuspensionNoticeForm
from fogcontrol.enforcement.tests.helpers_orders import a_case_of_kind, a_complaint
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


@pytest.mark.provision("P5")
@pytest.mark.provision("P6")
def test_p5_p6_the_complaint_letter_states_the_periods_of_the_ruleset_in_force_on_issue(town, monkeypatch):
    """The letter's wording takes P5's and P6's days from the ruleset (a Town that amends them gets
    its own numbers in the letters it issues next, with no change to the template)."""
    first = a_complaint(town, a_case_of_kind(town), served_days_ago=10, hearing_after=20)
    assert "held within 60 days after service" in first.document.body
    assert "Town Council within 15 days of notice" in first.document.body

    amended = dataclasses.replace(ruleset_on(town_today()), complaint_hearing_days=50, appeal_days=20)
    monkeypatch.setattr(documents_orders, "ruleset_on", lambda day: amended)
    second = a_complaint(town, a_case_of_kind(town, provision="E2"), served_days_ago=10, hearing_after=20)
    assert "held within 50 days after service" in second.document.body
    assert "Town Council within 20 days of notice" in second.document.body
