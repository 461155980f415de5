"""Who sees which documents: staff all; an FSE user its own establishments' once served; no one else."""

import pytest

from fogcontrol.core.roles import Role
from fogcontrol.notices.selectors import current_service, documents_for
from fogcontrol.notices.services import document_record_service
from fogcontrol.notices.tests.helpers import issue_letter

pytestmark = pytest.mark.django_db


def test_documents_for_scopes_by_role_subject_and_establishment(town, manager, today):
    served = issue_letter(town, served_on=today, subject=town.own_device)
    unserved = issue_letter(town)
    elsewhere = issue_letter(town, establishment=town.other_fse, served_on=today)
    assert list(documents_for(manager)) == [elsewhere, unserved, served]
    assert list(documents_for(town.users[Role.STAFF_READONLY], establishment=town.own_fse)) == [
        unserved,
        served,
    ]
    assert list(documents_for(manager, subject=town.own_device)) == [served]
    fse = town.users[Role.FSE]
    assert list(documents_for(fse)) == [served]
    for role in (Role.PROPERTY_OWNER, Role.HAULER):
        assert not documents_for(town.users[role]).exists()
    document_record_service(acting_user=manager, document=unserved, service_method="email", served_on=today)
    assert list(documents_for(fse)) == [unserved, served]
    shown = documents_for(fse).get(pk=unserved.pk)
    assert shown.served and current_service(shown).method == "email"
