"""What may this user do to a submission now, and if not, why (docs/architecture.md, "allowed
actions"): review it (staff, once) and correct it (the FSE, when staff asked, once). The page shows a
form only for an allowed step and the API states the same verdicts; the services refuse the same
steps for the same reasons (403 for the role, 409 for the state)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from fogcontrol.core.actions import Actions, allowed_if, first_refusal
from fogcontrol.core.permissions import has_role
from fogcontrol.records.models import RecordSubmission, SubmissionReview
from fogcontrol.records.roles import RECORD_KEEPERS, REVIEWERS


def submission_actions(user, submission: RecordSubmission) -> Actions:
    """``review`` and ``correct`` for ``submission`` (from ``selectors.submission_list``, which
    annotates ``is_corrected``; a submission fresh from a service is looked up)."""
    review = getattr(submission, "review", None)
    corrected = getattr(submission, "is_corrected", None)
    if corrected is None:
        corrected = submission.corrections.exists()
    return {
        "review": first_refusal(
            allowed_if(has_role(user, REVIEWERS), "Only the FOG Manager and inspectors review records."),
            allowed_if(review is None, "This submission was already reviewed."),
        ),
        "correct": first_refusal(
            # The FSE's and the owner's page shows why a correction is not open: in their language.
            allowed_if(has_role(user, RECORD_KEEPERS), _("Only the FSE and Town staff submit corrections.")),
            allowed_if(
                review is not None and review.outcome == SubmissionReview.Outcome.NEEDS_CORRECTION,
                _("Only a submission staff found to need correction can be corrected."),
            ),
            allowed_if(not corrected, _("This submission was already corrected; correct the latest one.")),
        ),
    }
