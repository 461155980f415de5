"""Allowed actions: what the inspection page offers is what the services do, for every status and
role (a refusal is 403 for the role or 409 for the state; input checks aside)."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.test import Client

from conftest import api_as
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.roles import Role
from fogcontrol.inspections import services
from fogcontrol.inspections.actions import inspection_actions
from fogcontrol.inspections.models import Inspection
from fogcontrol.inspections.tests.helpers import business_day_before_today, key, ready, scheduled

pytestmark = pytest.mark.django_db
ROLES = [Role.FOG_MANAGER, Role.INSPECTOR, Role.STAFF_READONLY, Role.HEARING_OFFICER]


class _Rollback(Exception):
    pass


def _service_takes(step, inspection, user, inspector) -> bool:
    calls = {
        "edit": lambda: services.inspection_save_draft(
            inspection=inspection, acting_user=user, changes={"notes": "x"}
        ),
        "complete": lambda: services.inspection_complete(
            inspection=inspection, acting_user=user, idempotency_key=key()
        ),
        "assign": lambda: services.inspection_assign(
            inspection=inspection,
            acting_user=user,
            inspector=inspector,
            scheduled_on=business_day_before_today(),
        ),
        "cancel": lambda: services.inspection_cancel(
            inspection=inspection, acting_user=user, reason="Closed for remodel"
        ),
        "follow_up": lambda: services.inspection_schedule(
            establishment=inspection.establishment,
            acting_user=user,
            kind="follow_up",
            follow_up_of=inspection,
            inspector=inspector,
            scheduled_on=business_day_before_today(),
        ),
    }
    try:
        with transaction.atomic():
            calls[step]()
            raise _Rollback
    except _Rollback:
        return True
    except (PermissionDenied, StateConflict):
        return False


def _at(status, town, inspector) -> Inspection:
    inspection = ready(scheduled(town.own_fse, inspector), inspector)
    if status == Inspection.Status.COMPLETED:
        services.inspection_complete(inspection=inspection, acting_user=inspector, idempotency_key=key())
    elif status == Inspection.Status.CANCELLED:
        services.inspection_cancel(inspection=inspection, acting_user=inspector, reason="Closed")
    inspection.refresh_from_db()
    return inspection


@pytest.mark.parametrize("status", list(Inspection.Status.values))
@pytest.mark.parametrize("role", ROLES)
def test_the_steps_offered_are_the_steps_the_services_take(town, status, role):
    inspector = town.users[Role.INSPECTOR]
    inspection = _at(status, town, inspector)
    user = town.users[role]
    verdicts = inspection_actions(user, inspection)
    for step in ("edit", "complete", "assign", "cancel", "follow_up"):
        assert bool(verdicts[step]) == _service_takes(step, inspection, user, inspector), (step, status, role)
        if not verdicts[step]:
            assert verdicts[step].reason


@pytest.mark.parametrize("status", list(Inspection.Status.values))
@pytest.mark.parametrize("role", [Role.FOG_MANAGER, Role.STAFF_READONLY])
def test_the_page_shows_exactly_the_allowed_buttons(town, status, role):
    inspector = town.users[Role.INSPECTOR]
    inspection = _at(status, town, inspector)
    user = town.users[role]
    client = Client()
    client.force_login(user)
    body = client.get(f"/inspections/{inspection.pk}/").content.decode()
    verdicts = inspection_actions(user, inspection)
    shown = {
        "edit": f'href="/inspections/{inspection.pk}/edit/"' in body,
        "assign": f'action="/inspections/{inspection.pk}/assign/"' in body,
        "cancel": f'action="/inspections/{inspection.pk}/cancel/"' in body,
        "follow_up": f'action="/inspections/{inspection.pk}/follow-up/"' in body,
        "report": f'href="/inspections/{inspection.pk}/report.pdf"' in body,
    }
    assert shown == {step: bool(verdicts[step]) for step in shown}


def test_a_validation_problem_is_not_a_refusal_of_the_step(town):
    inspector = town.users[Role.INSPECTOR]
    inspection = scheduled(town.own_fse, inspector)
    with pytest.raises(ValidationError):
        services.inspection_cancel(inspection=inspection, acting_user=inspector, reason=" ")


@pytest.mark.provision("D4")
def test_d4_a_follow_up_is_refused_until_the_inspection_is_completed_as_its_actions_say(town):
    """The API's allowed_actions refuses the follow-up of a draft, and scheduling one answers 409 with
    the same reason (it used to be scheduled); once completed, both allow it."""
    inspector = town.users[Role.INSPECTOR]
    draft = ready(scheduled(town.own_fse, inspector), inspector)
    client = api_as(town.users[Role.FOG_MANAGER])
    reason = client.get(f"/api/v1/inspections/{draft.pk}/").json()["allowed_actions"]["follow_up"]
    assert reason == "A follow-up is scheduled once the inspection is completed."
    follow_up = {
        "establishment": town.own_fse.pk,
        "kind": "follow_up",
        "follow_up_of": draft.pk,
        "scheduled_on": business_day_before_today().isoformat(),
    }
    refused = client.post("/api/v1/inspections/", follow_up, format="json")
    assert refused.status_code == 409 and reason in refused.content.decode()
    services.inspection_complete(inspection=draft, acting_user=inspector, idempotency_key=key())
    assert client.get(f"/api/v1/inspections/{draft.pk}/").json()["allowed_actions"]["follow_up"] == ""
    assert client.post("/api/v1/inspections/", follow_up, format="json").status_code == 201
