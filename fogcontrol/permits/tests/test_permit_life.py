"""The life of a permit: renewal, expiry, modification with notice, reissue on change (B6, B7, B8, L5)."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core import mail
from django.core.exceptions import PermissionDenied, ValidationError

from fogcontrol.permits import services
from fogcontrol.permits.models import (
    ApplicationKind,
    ApplicationStatus,
    FeeCharge,
    PermitModification,
    PermitNotice,
    PermitStatus,
)
from fogcontrol.permits.states import TransitionNotAllowed
from fogcontrol.permits.tests.conftest import pay_fees
from fogcontrol.permits.tests.orders import final_order
from fogcontrol.program.selectors import town_today
from fogcontrol.registry.services import establishment_update
from fogcontrol.servicing.services import frequency_change, status_sweep

D = dt.date


def renew(permit, *, fse_user, manager, on):
    application = services.renewal_application_start(permit=permit, acting_user=fse_user)
    application = services.application_submit(application=application, acting_user=fse_user)
    pay_fees(application, manager)  # B3: the renewal fee accompanies the application
    application = services.application_accept(application=application, acting_user=manager)
    return services.permit_issue(application=application, acting_user=manager, issued_on=on)


def licence_renewed(permit, manager, expires):
    """B6: the business licence was renewed; the permit is renewed with it."""
    establishment_update(establishment=permit.establishment, acting_user=manager, licence_expires_on=expires)


@pytest.mark.provision("B6")
def test_b6_renewal_is_prefilled_from_the_last_application_and_permit(renewal_due, fse_user):
    application = services.renewal_application_start(permit=renewal_due, acting_user=fse_user)
    assert application.kind == ApplicationKind.RENEWAL and application.previous_permit == renewal_due
    assert application.dining_capacity == 60 and application.wastewater_volume_gpd == 900
    assert [f.kind for f in application.fixtures.all()] == [
        "sink_three_compartment",
        "floor_drain",
        "hand_sink",
        "fryer",
    ]
    assert application.device_capacity_gallons == renewal_due.device_capacity_gallons


@pytest.mark.provision("B6")
def test_b6_on_time_renewal_continues_the_term_and_keeps_the_old_version(issued_2025, fse_user, manager):
    licence_renewed(issued_2025, manager, D(2027, 9, 30))  # runs past the renewed term: the B6 cap applies
    permit = renew(issued_2025, fse_user=fse_user, manager=manager, on=D(2026, 6, 15))
    assert permit.pk == issued_2025.pk and permit.number == issued_2025.number
    assert permit.term_start == D(2026, 7, 1)
    assert permit.valid_until == D(2027, 7, 1)
    assert [v.number for v in permit.versions.order_by("number")] == [1, 2]
    assert permit.versions.get(number=1).valid_until == D(2026, 7, 1)
    assert permit.versions.get(number=2).reason == "renewed"
    assert FeeCharge.objects.filter(kind="renewal", amount=Decimal("200.00")).count() == 1


@pytest.mark.provision("B6")
def test_b6_permit_expires_the_day_after_its_term(issued_2025):
    assert services.permits_expire_lapsed(on=D(2026, 7, 1)) == []
    expired = services.permits_expire_lapsed(on=D(2026, 7, 2))
    assert [p.pk for p in expired] == [issued_2025.pk]
    issued_2025.refresh_from_db()
    assert issued_2025.status == PermitStatus.EXPIRED
    assert issued_2025.events.filter(action="permit.expire", to_status="expired").exists()


@pytest.mark.provision("B6")
def test_b6_renewal_after_expiry_starts_a_new_term_on_the_day(issued_2025, fse_user, manager):
    services.permits_expire_lapsed(on=D(2026, 7, 20))
    issued_2025.refresh_from_db()
    licence_renewed(issued_2025, manager, D(2027, 9, 30))  # runs past the renewed term: the B6 cap applies
    permit = renew(issued_2025, fse_user=fse_user, manager=manager, on=D(2026, 8, 3))
    assert permit.status == PermitStatus.ISSUED
    assert permit.term_start == D(2026, 8, 3) and permit.valid_until == D(2027, 8, 3)


@pytest.mark.provision("B6")
def test_b6_term_end_on_a_weekend_moves_to_the_next_business_day(accepted, manager):
    permit = services.permit_issue(application=accepted, acting_user=manager, issued_on=D(2025, 11, 14))
    assert permit.valid_until == D(2026, 11, 16)  # 2026-11-14 is a Saturday (CCP §12a)


@pytest.mark.provision("B7")
def test_b7_frequency_change_takes_effect_no_sooner_than_ten_days_after_notice(
    issued, manager, django_capture_on_commit_callbacks
):
    # The frequency is the device's (E1, A2): proposed with servicing's frequency_change, which
    # revises the permit; a notice dated before today carries its mailing record (B7).
    notice_day = town_today() - dt.timedelta(days=3)
    with django_capture_on_commit_callbacks(execute=True):
        device_change = frequency_change(
            device=issued.device, acting_user=manager, to_days=60,
            reason="Pump-outs show 24% fill at 60 days (E6).", notice_date=notice_day,
            backdating_reason="Letter mailed before it was entered",
            mailing_record=f"Certified mail 9407 1118 9876 5400 1234 56, mailed {notice_day}",
        )  # fmt: skip
    change = device_change.permit_modifications.get()
    assert change.earliest_effective_on == notice_day + dt.timedelta(days=10)
    assert change.effective_on == change.earliest_effective_on
    assert change.status == PermitModification.Status.NOTIFIED
    assert "B7" in change.explanation["provisions"]
    notice = PermitNotice.objects.get(modification=change)
    assert notice.sent_on == notice_day and notice.method == "email_and_letter"
    assert "every 90 days to every 60 days" in notice.body
    notice.refresh_from_db()
    assert notice.email_sent_at is not None
    assert mail.outbox[-1].subject == (
        f"Grease control device {issued.device.identifier}: proposed change of service frequency"
    )
    assert mail.outbox[-1].attachments[0][2] == "application/pdf"
    issued.refresh_from_db()
    assert issued.service_frequency_days == 90  # not yet

    # The device's change and the permit's reissue take effect together, on the effective date.
    status_sweep(today=change.effective_on - dt.timedelta(days=1))
    services.permit_modifications_apply_due(on=change.effective_on - dt.timedelta(days=1))
    issued.refresh_from_db()
    assert issued.service_frequency_days == 90
    status_sweep(today=change.effective_on)
    issued.refresh_from_db()
    assert issued.service_frequency_days == 60 and issued.version_number == 2
    old, new = issued.versions.order_by("number")
    assert (old.service_frequency_days, new.service_frequency_days) == (90, 60)
    assert new.reason == "modified" and new.effective_from == change.effective_on
    issued.device.refresh_from_db()
    assert issued.device.assigned_frequency_days == 60


@pytest.mark.provision("B7")
def test_b7_an_earlier_effective_date_than_the_notice_allows_is_refused(issued, manager):
    today = town_today()
    with pytest.raises(ValidationError) as error:
        services.permit_modification_propose(
            permit=issued, acting_user=manager, changes={"conditions": "Drain screens (C1)."},
            reason="More frequent", effective_on=today + dt.timedelta(days=9),
        )  # fmt: skip
    assert "B7" in error.value.message_dict["effective_on"][0]
    assert not PermitModification.objects.exists()


@pytest.mark.provision("B7")
def test_b7_notice_given_long_enough_ago_applies_the_change_at_once(accepted, manager):
    today = town_today()
    permit = services.permit_issue(
        application=accepted, acting_user=manager, issued_on=today - dt.timedelta(days=30)
    )
    change = services.permit_modification_propose(
        permit=permit, acting_user=manager, changes={"conditions": "Drain screens on every floor drain (C1)."},
        reason="Inspection found open floor drains.", notice_date=today - dt.timedelta(days=12),
        backdating_reason="Letter mailed at the inspection", mailing_record="Certified mail 9407 1118 9876 5400 1234 56",
    )  # fmt: skip
    assert change.status == PermitModification.Status.EFFECTIVE
    permit.refresh_from_db()
    assert permit.versions.get(number=2).conditions == "Drain screens on every floor drain (C1)."


@pytest.mark.provision("B8")
def test_b8_frequency_change_needs_no_application_but_ownership_does(issued, manager):
    with pytest.raises(ValidationError) as error:
        services.permit_modification_propose(
            permit=issued, acting_user=manager, changes={"business_name": "New Owner Diner"}, reason="Sold"
        )
    assert "B8" in error.value.message_dict["changes"][0]
    device_change = frequency_change(
        device=issued.device, acting_user=manager, to_days=120, reason="Low accumulation (E5)."
    )
    change = device_change.permit_modifications.get()
    assert change.status == PermitModification.Status.NOTIFIED
    assert not issued.follow_on_applications.exists()


@pytest.mark.provision("B7")
def test_b7_only_the_fog_manager_changes_permit_terms(issued, inspector, fse_user):
    for user in (inspector, fse_user):
        with pytest.raises(PermissionDenied):
            services.permit_modification_propose(
                permit=issued, acting_user=user, changes={"service_frequency_days": 60}, reason="x"
            )


@pytest.mark.provision("B8")
def test_b8_change_of_ownership_opens_a_new_application_and_a_new_permit_supersedes_the_old(
    issued, fse_user, manager
):
    pending = frequency_change(
        device=issued.device, acting_user=manager, to_days=60, reason="More frequent"
    ).permit_modifications.get()
    with pytest.raises(ValidationError):
        services.change_application_start(permit=issued, acting_user=fse_user, change_reasons=[])
    application = services.change_application_start(
        permit=issued,
        acting_user=fse_user,
        change_reasons=["ownership"],
        change_description="Sold to J. Ortiz",
    )
    assert application.kind == ApplicationKind.CHANGE and application.previous_permit == issued
    application = services.application_submit(application=application, acting_user=fse_user)
    assert FeeCharge.objects.get(application=application).kind == "reissue"
    pay_fees(application, manager)  # B3
    application = services.application_accept(application=application, acting_user=manager)
    new = services.permit_issue(application=application, acting_user=manager, issued_on=D(2025, 9, 1))
    assert new.pk != issued.pk and new.number != issued.number
    issued.refresh_from_db()
    assert issued.status == PermitStatus.SUPERSEDED and issued.superseded_by == new
    assert new.service_frequency_days == 90
    pending.refresh_from_db()
    assert pending.status == PermitModification.Status.WITHDRAWN
    with pytest.raises(TransitionNotAllowed, match="replaced"):
        services.permit_suspend(permit=issued, acting_user=manager, reason="x")


@pytest.mark.provision("L5")
def test_l5_revoked_permit_cannot_be_renewed_or_reinstated(issued, fse_user, manager):
    order = final_order(issued, manager, kind="revocation")  # L1-L6: the revocation's process, recorded
    services.permit_revoke(permit=issued, acting_user=manager, order=order)
    issued.refresh_from_db()
    with pytest.raises(TransitionNotAllowed, match="L5"):
        services.renewal_application_start(permit=issued, acting_user=fse_user)
    with pytest.raises(TransitionNotAllowed):
        services.permit_reinstate(permit=issued, acting_user=manager, reason="x")
    application = services.application_create(acting_user=fse_user, establishment=issued.establishment)
    assert application.kind == ApplicationKind.NEW


def test_suspended_permit_is_reinstated_by_the_fog_manager(issued, manager):
    suspension = final_order(issued, manager, kind="suspension")  # L1-L6: recorded before it applies
    services.permit_suspend(permit=issued, acting_user=manager, order=suspension)
    issued.refresh_from_db()
    assert issued.status == PermitStatus.SUSPENDED
    reinstatement = services.permit_order_record(
        permit=issued, acting_user=manager, kind="reinstatement", facts="Order lifted", ends_order=suspension
    )
    services.permit_reinstate(permit=issued, acting_user=manager, order=reinstatement)
    issued.refresh_from_db()
    assert issued.status in (PermitStatus.ISSUED, PermitStatus.EXPIRED)
    changes = issued.events.filter(action__in=["permit.suspend", "permit.reinstate"])
    assert [e.action for e in changes] == ["permit.suspend", "permit.reinstate"]


@pytest.mark.provision("B6")
def test_b6_daily_run_applies_changes_then_expires(issued_2025):
    result = services.permits_daily(on=D(2026, 7, 2))
    assert result == {"modifications_applied": 0, "permits_expired": 1}
    assert ApplicationStatus.ISSUED == issued_2025.issuing_applications.get().status
