"""Expansion and remodel: the 60-day notice (G1), late notice flagged, plan review and its fee (G2)."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from fogcontrol.permits import services
from fogcontrol.permits.models import FeeCharge, RemodelNotice
from fogcontrol.permits.states import TransitionNotAllowed
from fogcontrol.program.selectors import town_today

PDF = b"%PDF-1.4\n%%EOF\n"


@pytest.mark.provision("G1")
def test_g1_notice_sixty_days_ahead_is_on_time(town, fse_user, fees):
    today = town_today()
    notice = services.remodel_notice_file(
        acting_user=fse_user, establishment=town.own_fse, kind="remodel",
        description="New cook line with two fryers", planned_start=today + dt.timedelta(days=60),
    )  # fmt: skip
    assert notice.reference.startswith("RN-")
    assert notice.latest_notice_on == today and not notice.late
    assert "G1" in notice.explanation["provisions"]
    assert notice.plan_review == RemodelNotice.PlanReview.AWAITING_PLANS


@pytest.mark.provision("G1")
def test_g1_late_notice_is_kept_and_flagged(town, fse_user, fees):
    today = town_today()
    notice = services.remodel_notice_file(
        acting_user=fse_user, establishment=town.own_fse, kind="expansion",
        description="Add 40 seats", planned_start=today + dt.timedelta(days=59),
    )  # fmt: skip
    assert notice.late and notice.latest_notice_on == today - dt.timedelta(days=1)


@pytest.mark.provision("G2")
def test_g2_plan_review_is_tracked_and_charged(town, fse_user, inspector, fees):
    notice = services.remodel_notice_file(
        acting_user=fse_user, establishment=town.own_fse, kind="process_change",
        description="Start frying chicken", planned_start=town_today() + dt.timedelta(days=90),
    )  # fmt: skip
    with pytest.raises(TransitionNotAllowed):
        services.remodel_plan_review_decide(notice=notice, acting_user=inspector, approved=True)
    notice = services.remodel_plans_submit(
        notice=notice, acting_user=fse_user, plans=SimpleUploadedFile("plans.pdf", PDF)
    )
    assert notice.plan_review == RemodelNotice.PlanReview.PLANS_RECEIVED
    assert FeeCharge.objects.get(remodel_notice=notice).amount == Decimal("450.00")
    with pytest.raises(ValidationError):
        services.remodel_plan_review_decide(notice=notice, acting_user=inspector, approved=False)
    notice = services.remodel_plan_review_decide(
        notice=notice, acting_user=inspector, approved=False, notes="Show the interceptor on the plan."
    )
    notice = services.remodel_plans_submit(
        notice=notice, acting_user=fse_user, plans=SimpleUploadedFile("plans-rev1.pdf", PDF)
    )
    assert FeeCharge.objects.filter(remodel_notice=notice).count() == 1  # one fee per review
    notice = services.remodel_plan_review_decide(notice=notice, acting_user=inspector, approved=True)
    assert notice.plan_review == RemodelNotice.PlanReview.APPROVED
