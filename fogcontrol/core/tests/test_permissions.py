"""The one role check: a job passes, a person needs one of the roles, anyone else is refused."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied

from fogcontrol.core.actors import actor_label_for, is_job, person
from fogcontrol.core.permissions import has_role, require_role
from fogcontrol.core.roles import Role
from fogcontrol.testing import factories

MANAGERS = {Role.FOG_MANAGER}


def test_a_job_label_passes_every_role_check_and_is_named_as_itself():
    require_role("nightly-sweep", MANAGERS, "refused")
    assert has_role("nightly-sweep", MANAGERS)
    assert is_job("nightly-sweep") and person("nightly-sweep") is None
    assert actor_label_for("nightly-sweep") == "nightly-sweep"


@pytest.mark.django_db
def test_a_person_needs_one_of_the_roles_and_is_refused_with_the_message():
    manager = factories.UserFactory(role=Role.FOG_MANAGER)
    clerk = factories.UserFactory(role=Role.BILLING_CLERK)
    require_role(manager, MANAGERS, "Only the FOG Manager may do this.")
    with pytest.raises(PermissionDenied, match="Only the FOG Manager may do this."):
        require_role(clerk, MANAGERS, "Only the FOG Manager may do this.")
    assert person(manager) == manager and actor_label_for(manager) == manager.username


@pytest.mark.django_db
def test_a_superuser_passes_for_back_office_repairs():
    assert has_role(factories.UserFactory(role=Role.STAFF_READONLY, is_superuser=True), MANAGERS)


def test_no_one_and_an_anonymous_visitor_are_refused():
    for nobody in (None, AnonymousUser()):
        assert not has_role(nobody, MANAGERS)
        with pytest.raises(PermissionDenied):
            require_role(nobody, MANAGERS, "Sign in first.")
        assert person(nobody) is None
