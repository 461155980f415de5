"""Who may see and do what with documents and templates: every page and API route × every role.

Templates are Town staff's (outside users: 404); the FOG Manager and the Hearing Officer draft and
edit (`roles.TEMPLATE_EDITORS`). Issued documents: staff see all, an FSE user its own
establishments' once served (`own_fse`), others none (404). Issuing and recording service:
`roles.DOCUMENT_ISSUERS`; another role that sees the document is refused (403) before its input is
read.

Run by notices/tests/test_access.py; the kit is fogcontrol/testing/access.py.
"""

from __future__ import annotations

from fogcontrol.core.roles import Role
from fogcontrol.notices.roles import DOCUMENT_ISSUERS, TEMPLATE_EDITORS
from fogcontrol.notices.services import (
    document_issue,
    print_batch_render,
    print_batch_start,
    template_version_draft,
)
from fogcontrol.program.selectors import town_today
from fogcontrol.testing.access import STAFF, api, page

OWN = frozenset({Role.FSE})


def build(town) -> None:
    """A letter served on the FSE's own establishment, and a draft of the letter's next wording."""
    manager = town.users[Role.FOG_MANAGER]
    town.records["document"] = document_issue(
        acting_user=manager,
        key="general_letter",
        establishment=town.own_fse,
        addressee="Blue Plate Diner\n12 Main Street",
        context={"business_name": "Blue Plate Diner", "body_text": "Please call us."},
        service_method="personal_delivery",
        served_on=town_today(),
    )
    town.records["draft"] = template_version_draft(acting_user=manager, key="general_letter")
    # A letter waiting for the certified mail run (issue #17).
    town.records["to_mail"] = document_issue(
        acting_user=manager,
        key="general_letter",
        establishment=town.own_fse,
        addressee="Blue Plate Diner\n12 Main Street",
        context={"business_name": "Blue Plate Diner", "body_text": "Your hearing is set."},
        service_method="certified_mail",
        article_number="9407 1000 0000 0001",
        served_on=None,
    )
    # A print batch of the mail run, rendered (issue #17, #16): its page and its PDF are staff's.
    batch = print_batch_start(acting_user=manager, documents=[town.records["to_mail"]])
    town.records["batch"] = print_batch_render(batch_id=batch.pk)


def _d(t):
    return t["document"].pk


def _v(t):
    return t["draft"].pk


def _version_body(t):
    return {"title": "A letter", "body": "Dear {business_name}, {body_text}", "effective_from": "2099-01-01",
            "adopted_by": "Res. 99"}  # fmt: skip


def _letter(t):
    return {"establishment": t.own_fse.pk, "addressee": "Blue Plate Diner", "body_text": "Hello.",
            "service_method": "email", "served_on": ""}  # fmt: skip


def _service(t):
    return {"service_method": "email", "served_on": town_today().isoformat()}


def _mail_log(t):
    return {
        f"article_{t['to_mail'].pk}": "9407 1000 0000 0001",
        f"mailed_{t['to_mail'].pk}": town_today().isoformat(),
    }


ROUTES = [
    page("notices:mail_run", "/notices/mail-run/", record=False, scope=STAFF),
    page(
        "notices:mail_batch",
        "/notices/mail-run/batches/",
        method="post",
        record=False,
        scope=STAFF,
        body=lambda t: {"document": [t["to_mail"].pk]},
    ),
    page("notices:print_batch", lambda t: f"/notices/mail-run/batches/{t['batch'].pk}/", scope=STAFF),
    page("notices:print_batch_pdf", lambda t: f"/notices/mail-run/batches/{t['batch'].pk}/pdf/", scope=STAFF),
    page(
        "notices:mail_log",
        "/notices/mail-run/log/",
        method="post",
        record=False,
        scope=STAFF,
        may=DOCUMENT_ISSUERS,
        body=_mail_log,
    ),
    api("notices-mail-run-list", "/api/v1/notices/mail-run/", record=False, scope=STAFF),
    api(
        "notices-mail-run-batch",
        "/api/v1/notices/mail-run/batch/",
        method="post",
        record=False,
        scope=STAFF,
        body=lambda t: {"documents": [t["to_mail"].pk]},
    ),
    api(
        "notices-print-batch-detail", lambda t: f"/api/v1/notices/print-batches/{t['batch'].pk}/", scope=STAFF
    ),
    api(
        "notices-print-batch-pdf",
        lambda t: f"/api/v1/notices/print-batches/{t['batch'].pk}/pdf/",
        scope=STAFF,
    ),
    api(
        "notices-mail-run-log",
        "/api/v1/notices/mail-run/log/",
        method="post",
        record=False,
        scope=STAFF,
        may=DOCUMENT_ISSUERS,
        body=lambda t: {"rows": [{"document": t["to_mail"].pk, "mailed_on": town_today().isoformat()}]},
    ),
    page("notices:templates", "/notices/templates/", record=False, scope=STAFF),
    page("notices:template", "/notices/templates/general_letter/", record=False, scope=STAFF),
    page(
        "notices:template_draft",
        "/notices/templates/general_letter/draft/",
        method="post",
        record=False,
        scope=STAFF,
        may=TEMPLATE_EDITORS,
    ),
    page("notices:version", lambda t: f"/notices/versions/{_v(t)}/", scope=STAFF),
    page(
        "notices:version_edit",
        lambda t: f"/notices/versions/{_v(t)}/edit/",
        scope=STAFF,
        may=TEMPLATE_EDITORS,
    ),
    page(
        "notices:version_edit",
        lambda t: f"/notices/versions/{_v(t)}/edit/",
        method="post",
        body=_version_body,
        scope=STAFF,
        may=TEMPLATE_EDITORS,
    ),
    page(
        "notices:version_preview",
        lambda t: f"/notices/versions/{_v(t)}/preview/",
        method="post",
        body=_version_body,
        scope=STAFF,
        may=TEMPLATE_EDITORS,
        ok=200,
    ),
    page("notices:documents", "/notices/documents/", record=False),
    page("notices:document_new", "/notices/documents/new/", record=False, scope=STAFF, may=DOCUMENT_ISSUERS),
    page(
        "notices:document_new",
        "/notices/documents/new/",
        method="post",
        body=_letter,
        record=False,
        scope=STAFF,
        may=DOCUMENT_ISSUERS,
    ),
    page("notices:document", lambda t: f"/notices/documents/{_d(t)}/", owners=OWN),
    page("notices:document_pdf", lambda t: f"/notices/documents/{_d(t)}/pdf/", owners=OWN),
    page(
        "notices:document_service",
        lambda t: f"/notices/documents/{_d(t)}/service/",
        method="post",
        body=_service,
        owners=OWN,
        may=DOCUMENT_ISSUERS,
    ),
    api("notices-template-list", "/api/v1/notices/templates/", record=False, scope=STAFF),
    api(
        "notices-template-versions",
        "/api/v1/notices/templates/general_letter/versions/",
        record=False,
        scope=STAFF,
    ),
    api(
        "notices-template-versions",
        "/api/v1/notices/templates/general_letter/versions/",
        method="post",
        body=_version_body,
        record=False,
        scope=STAFF,
        may=TEMPLATE_EDITORS,
    ),
    api("notices-document-list", "/api/v1/notices/documents/", record=False),
    api(
        "notices-document-list",
        "/api/v1/notices/documents/",
        method="post",
        body=_letter,
        record=False,
        may=DOCUMENT_ISSUERS,
    ),
    api("notices-document-detail", lambda t: f"/api/v1/notices/documents/{_d(t)}/", owners=OWN),
    api("notices-document-pdf", lambda t: f"/api/v1/notices/documents/{_d(t)}/pdf/", owners=OWN),
    api(
        "notices-document-service",
        lambda t: f"/api/v1/notices/documents/{_d(t)}/service/",
        method="post",
        body=_service,
        owners=OWN,
        may=DOCUMENT_ISSUERS,
    ),
]
