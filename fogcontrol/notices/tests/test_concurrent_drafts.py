"""Two FOG Managers editing the same draft of a document's wording from the same copy (issue 15,
optimistic concurrency; core/concurrency.py): the first save wins, the second is refused with 409
and its input kept, and nothing is silently overwritten. A template's own `version` is its
wording's number; its saves are counted in `edit_version`."""

import datetime as dt

from django.test import Client

from fogcontrol.audit.services import snapshot
from fogcontrol.core.roles import Role
from fogcontrol.notices.models import DocumentTemplate
from fogcontrol.testing import factories

STALE = "Someone else saved this record after you opened it"


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_stale_draft_save_is_refused_with_the_input_kept(town, manager, today):
    other = factories.UserFactory(role=Role.FOG_MANAGER)
    first, second = _client(manager), _client(other)
    first.post("/notices/templates/general_letter/draft/")
    draft = DocumentTemplate.objects.get(key="general_letter", version=2)
    opened_at = draft.edit_version
    assert (
        f'name="version" value="{opened_at}"'
        in first.get(f"/notices/versions/{draft.pk}/edit/").content.decode()
    )
    tomorrow = (today + dt.timedelta(days=1)).isoformat()

    def wording(adopted_by):
        return {"title": "Notice", "body": "Dear {business_name},\n\n{body_text}", "effective_from": tomorrow,
                "adopted_by": adopted_by, "version": opened_at}  # fmt: skip

    assert first.post(f"/notices/versions/{draft.pk}/edit/", wording("Res. 2026-41")).status_code == 302
    refused = second.post(f"/notices/versions/{draft.pk}/edit/", wording("Res. 2026-99"))
    assert refused.status_code == 409
    page = refused.content.decode()
    assert STALE in page and 'value="Res. 2026-99"' in page
    draft.refresh_from_db()
    assert draft.adopted_by == "Res. 2026-41" and draft.version == 2  # the wording's number is untouched
    assert draft.edit_version == opened_at + 1
    assert "edit_version" not in snapshot(draft)  # the counter is not the record's content
