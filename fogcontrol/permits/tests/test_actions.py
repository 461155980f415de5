"""Allowed actions come from the state machines: what the pages offer is what the services do.

`permits.actions` answers "what may this user do to this record now, and why not"; the permit
and application pages show exactly those steps, and the services take exactly those steps.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.test import Client

from fogcontrol.core.errors import StateConflict
from fogcontrol.core.roles import Role
from fogcontrol.permits import services
from fogcontrol.permits.actions import application_actions, permit_actions
from fogcontrol.permits.models import ApplicationStatus, PermitStatus
from fogcontrol.permits.tests.conftest import pay_fees
from fogcontrol.permits.tests.factories import PermitFactory
from fogcontrol.permits.tests.orders import noticed_order
from fogcontrol.program.models import RulesetVersion
from fogcontrol.program.selectors import ruleset_on, town_today
from fogcontrol.rules.devices import OTHER, default_frequency

ROLES = [Role.FOG_MANAGER, Role.INSPECTOR, Role.STAFF_READONLY, Role.FSE, Role.PROPERTY_OWNER, Role.HAULER]
STATUSES = [PermitStatus.ISSUED, PermitStatus.EXPIRED, PermitStatus.SUSPENDED, PermitStatus.REVOKED,
            PermitStatus.SUPERSEDED]  # fmt: skip


def _page(user, url):
    client = Client()
    client.force_login(user)
    return client.get(url)


def _buttons_on_the_permit_page(response, permit) -> set[str]:
    """The steps a reader is offered, read from the page's links, forms and buttons."""
    body = response.content.decode()
    shown = set()
    if f'action="/permits/{permit.pk}/renew/"' in body:
        shown.add("renew")
    if f'href="/permits/{permit.pk}/change/"' in body:
        shown.add("change")
    if f'href="/permits/{permit.pk}/modify/"' in body:
        shown.add("modify")
    # L1-L6, M1-M3: suspension, revocation and reinstatement only by a recorded order.
    if f'href="/permits/{permit.pk}/orders/new/"' in body:
        shown.add("record_order")
    return shown


def _service_takes(step, permit, user) -> bool:
    """Does the service take the step? Tried, then rolled back."""
    calls = {
        "renew": lambda: services.renewal_application_start(permit=permit, acting_user=user),
        "change": lambda: services.change_application_start(
            permit=permit, acting_user=user, change_reasons=["ownership"]
        ),
        "modify": lambda: services.permit_modification_propose(
            permit=permit,
            acting_user=user,
            changes={"conditions": "Clean the baffles monthly."},
            reason="Repeated overflows",
            effective_on=town_today() + dt.timedelta(days=100),
        ),  # fmt: skip
        "record_order": lambda: noticed_order(permit, user, kind="revocation"),
    }
    try:
        with transaction.atomic():
            calls[step]()
            transaction.set_rollback(True)
    except (PermissionDenied, StateConflict):
        return False
    except ValidationError as error:
        pytest.fail(f"{step} refused for its input, not its state or role: {error}")
    return True


@pytest.mark.parametrize("status", STATUSES)
def test_the_permit_page_offers_exactly_the_steps_the_services_take(town, fees, profile, status):
    valid_until = town_today() + (
        dt.timedelta(days=200) if status != PermitStatus.EXPIRED else -dt.timedelta(days=5)
    )
    permit = PermitFactory(establishment=town.own_fse, status=status, valid_until=valid_until,
                           term_start=valid_until - dt.timedelta(days=366))  # fmt: skip
    for role in ROLES:
        user = town.users[role]
        response = _page(user, f"/permits/{permit.pk}/")
        if response.status_code == 404:
            continue  # outside the user's scope: nothing to offer
        offered = _buttons_on_the_permit_page(response, permit)
        taken = {step for step in permit_actions(user, permit) if _service_takes(step, permit, user)}
        assert offered == taken, (role, status, offered, taken)
        allowed = {step for step, verdict in permit_actions(user, permit).items() if verdict}
        assert allowed == taken, (role, status)


def test_a_refused_step_says_why(town, fees, profile):
    permit = PermitFactory(establishment=town.own_fse, status=PermitStatus.REVOKED)

    manager_view = permit_actions(town.users[Role.FOG_MANAGER], permit)
    fse_view = permit_actions(town.users[Role.FSE], permit)

    assert "revoked" in manager_view["record_order"].reason
    assert "L5" in fse_view["renew"].reason
    assert "Only the FOG Manager" in fse_view["record_order"].reason


def test_the_application_page_offers_the_steps_the_state_machine_allows(town, accepted, manager, fse_user):
    response = _page(manager, f"/permits/applications/{accepted.pk}/")
    body = response.content.decode()
    steps = set(re.findall(rf'action="/permits/applications/{accepted.pk}/([a-z-]+)/"', body))

    allowed = {
        step.replace("_", "-") for step, verdict in application_actions(manager, accepted).items() if verdict
    }
    assert steps == allowed - {"edit"}
    assert {"issue", "reject", "schedule-inspection", "request-information", "note", "withdraw"} <= steps
    fse_page = _page(fse_user, f"/permits/applications/{accepted.pk}/").content.decode()
    fse_steps = set(re.findall(rf'action="/permits/applications/{accepted.pk}/([a-z-]+)/"', fse_page))
    assert fse_steps == {"note", "withdraw"}
    assert accepted.status == ApplicationStatus.ACCEPTED


@pytest.mark.provision("E2")
def test_E2_the_issue_form_proposes_the_default_of_an_other_device_not_the_traps(
    town, draft, fse_user, manager
):
    RulesetVersion.objects.create(
        effective_from=dt.date(2024, 1, 1),
        label="Town amendment",
        values={"default_frequency_other_days": 60},
    )
    services.application_update(application=draft, acting_user=fse_user, device=None, device_kind=OTHER,
                                device_capacity_gallons=50)  # fmt: skip
    application = services.application_submit(application=draft, acting_user=fse_user)
    application = services.application_accept(application=application, acting_user=manager)
    expected = default_frequency(OTHER, ruleset_on(town_today()))
    assert expected == 60
    pay_fees(application, manager)  # B3: the issue form is offered once the fee is paid

    body = _page(manager, f"/permits/applications/{application.pk}/").content.decode()

    proposed = re.search(r'<option value="(\d+)" selected>', body)
    assert proposed is not None and int(proposed.group(1)) == expected
    permit = services.permit_issue(application=application, acting_user=manager)
    assert permit.service_frequency_days == expected


def test_the_api_states_the_same_actions_and_answers_them_alike(town, fees, profile):
    from conftest import api_as

    permit = PermitFactory(establishment=town.own_fse, status=PermitStatus.SUSPENDED)
    manager = api_as(town.users[Role.FOG_MANAGER])

    stated = manager.get(f"/api/v1/permits/{permit.pk}/").json()["allowed_actions"]

    # L1-L6, M1-M3: a suspended permit is reinstated or revoked only by a recorded order.
    assert stated["record_order"] == {"allowed": True, "reason": ""}
    refused = manager.post(f"/api/v1/permits/{permit.pk}/reinstate/", {"reason": "Order 13"}, format="json")
    assert refused.status_code == 409
    fse_view = api_as(town.users[Role.FSE]).get(f"/api/v1/permits/{permit.pk}/").json()["allowed_actions"]
    assert fse_view["record_order"] == {"allowed": False, "reason": "Only the FOG Manager may do this."}


@pytest.mark.provision("G2")
def test_G2_plans_are_offered_to_the_applicant_and_the_decision_to_reviewers_only(
    town, fse_user, fees, profile
):
    notice = services.remodel_notice_file(
        acting_user=fse_user, establishment=town.own_fse, kind="remodel", description="New fryer line",
        planned_start=town_today() + dt.timedelta(days=90),
    )  # fmt: skip
    url = f"/permits/remodel/{notice.pk}/"

    assert 'name="plans-plans"' in _page(fse_user, url).content.decode()
    for role in (Role.STAFF_READONLY, Role.HEARING_OFFICER):
        body = _page(town.users[role], url).content.decode()
        assert 'name="plans-plans"' not in body and 'name="decide-approved"' not in body


@pytest.mark.provision("B3")
def test_b3_a_fee_invoiced_by_billing_is_not_offered_for_payment_or_waiver_here(accepted_fee_owed, manager):
    """Billing picked the fee up: the page shows no payment or waiver form and the API says why, as
    the services refuse both (409); they used to be offered."""
    from conftest import api_as
    from fogcontrol.permits.services.fees import fees_mark_invoiced

    fee = accepted_fee_owed.fees.get()
    fees_mark_invoiced(ids=[fee.pk], acting_user=manager)
    why = "The fee is invoiced by billing: its payment is recorded there, so it is not taken twice (B3)."
    body = _page(manager, f"/permits/applications/{accepted_fee_owed.pk}/").content.decode()
    assert "/pay-fee/" not in body and "/waive-fee/" not in body
    stated = api_as(manager).get(f"/api/v1/permit-applications/{accepted_fee_owed.pk}/").json()
    assert stated["allowed_actions"]["pay_fee"] == {"allowed": False, "reason": why}
    assert stated["allowed_actions"]["waive_fee"] == {"allowed": False, "reason": why}
    with pytest.raises(StateConflict, match="invoiced by billing"):
        services.fee_record_payment(charge=fee, acting_user=manager, amount=fee.amount,
                                    paid_on=town_today(), reference="R-1")  # fmt: skip
    with pytest.raises(StateConflict, match="invoiced by billing"):
        services.fee_waive(charge=fee, acting_user=manager, reason="Hardship")


def test_a_role_that_never_applies_is_denied_a_change_whatever_the_permit_state(town, fees, profile):
    """B8: the change step is refused for the role first (403), as its verdict says, not for the
    revoked permit (409), which used to be checked first."""
    permit = PermitFactory(establishment=town.own_fse, status=PermitStatus.REVOKED)
    clerk = town.users[Role.STAFF_READONLY]
    verdict = permit_actions(clerk, permit)["change"]
    assert not verdict and verdict.reason.startswith("Only the establishment's own users")
    with pytest.raises(PermissionDenied):
        services.change_application_start(permit=permit, acting_user=clerk, change_reasons=["ownership"])
    with pytest.raises(StateConflict):
        services.change_application_start(
            permit=permit, acting_user=town.users[Role.FSE], change_reasons=["ownership"]
        )


@pytest.mark.provision("B3")
def test_b3_the_issue_form_waits_for_the_fee_as_the_service_does(accepted_fee_owed, manager):
    """The fee owed: the page offers no issue form and the API says why, in the service's words (409);
    the form used to be offered. Paid: offered."""
    from conftest import api_as

    url = f"/permits/applications/{accepted_fee_owed.pk}/"
    verdict = application_actions(manager, accepted_fee_owed)["issue"]
    assert not verdict and verdict.reason.startswith("The application fee is owed: $350.00")
    assert f'action="{url}issue/"' not in _page(manager, url).content.decode()
    stated = api_as(manager).get(f"/api/v1/permit-applications/{accepted_fee_owed.pk}/").json()
    assert stated["allowed_actions"]["issue"] == {"allowed": False, "reason": verdict.reason}
    with pytest.raises(StateConflict) as refused:
        services.permit_issue(application=accepted_fee_owed, acting_user=manager)
    assert str(refused.value) == verdict.reason
    pay_fees(accepted_fee_owed, manager)
    assert f'action="{url}issue/"' in _page(manager, url).content.decode()
