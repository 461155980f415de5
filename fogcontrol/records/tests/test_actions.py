"""The allowed actions on a submission match what the services take (review once by staff; correct
once by the FSE when staff asked), in the API and on the page (F3, F4)."""

import pytest
from django.core.exceptions import PermissionDenied

from conftest import api_as
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.roles import Role
from fogcontrol.records import services
from fogcontrol.records.actions import submission_actions
from fogcontrol.records.selectors import submission_detail
from fogcontrol.records.tests.helpers import bmp_report_submitted, pdf_upload


def _verdicts(user, submission):
    fresh = submission_detail(user, submission.pk)
    return {step: bool(verdict) for step, verdict in submission_actions(user, fresh).items()}


@pytest.mark.provision("F3")
def test_f3_each_state_and_role_offers_exactly_the_steps_the_services_take(town):
    manager, fse, submission = bmp_report_submitted(town)
    reader = town.users[Role.STAFF_READONLY]
    assert _verdicts(manager, submission) == {"review": True, "correct": False}
    assert _verdicts(fse, submission) == {"review": False, "correct": False}
    assert _verdicts(reader, submission) == {"review": False, "correct": False}
    with pytest.raises(PermissionDenied):
        services.submission_review(submission=submission, outcome="accepted", acting_user=reader)
    with pytest.raises(StateConflict):
        services.submission_correct(original=submission, uploaded_file=pdf_upload(), acting_user=fse)
    services.submission_review(
        submission=submission, outcome="needs_correction", reason="Blurry", acting_user=manager
    )
    assert _verdicts(manager, submission) == {"review": False, "correct": True}
    assert _verdicts(fse, submission) == {"review": False, "correct": True}
    api = api_as(fse).get(f"/api/v1/record-submissions/{submission.pk}/").json()
    assert api["allowed_actions"] == {
        "review": "Only the FOG Manager and inspectors review records.",
        "correct": "",
    }
    services.submission_correct(original=submission, uploaded_file=pdf_upload(), acting_user=fse)
    assert _verdicts(fse, submission) == {"review": False, "correct": False}
    with pytest.raises(StateConflict):
        services.submission_correct(original=submission, uploaded_file=pdf_upload(), acting_user=fse)
