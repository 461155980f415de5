"""Demo records: the FSEs' own records in every state (C2, C4, C5, D7, E9, F2, F3, F6).

Called by ``fogcontrol.demo`` (``seed(*, rng, town, today)``) through the records services, so the
states are what the real rules make of them. The demo FSE user's establishment gets one of
everything: training a year old with a signed roster and a new hire not yet trained (late), pickups
by its hauler and by a recycler, a monthly self-monitoring requirement with reports missing (late,
found by the sweep), one awaiting review, one accepted, one sent back for correction and corrected,
and a contingency plan requested and not yet due. A dozen other FSEs get a lighter mix.

Submissions are copies of record received now (their receipt time is never backdated); the
schedule's earlier reports are the missing ones.
"""

from __future__ import annotations

import base64
import datetime as dt
import io
import random
from decimal import Decimal

from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image, ImageDraw

from fogcontrol.permits.models import Permit, PermitStatus
from fogcontrol.records import services
from fogcontrol.records.models import TRAINING_SUBJECTS, SubmissionReview
from fogcontrol.rules.records import add_months

ACTING = "seed_demo"
TRAINERS = ("Ana Ruiz", "Kim Tran", "Chef Marco Bianchi", "Priya Nair")
EMPLOYEES = ("Luis Ortega", "Dana Ruiz", "Sam Okafor", "Jo Whitfield", "Mei Chen", "Omar Haddad", "Rosa Diaz")
RECYCLERS = ("Bay Area Biofuel", "Peninsula Renderers")
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def _signature(rng: random.Random) -> str:
    image = Image.new("RGBA", (300, 100), (0, 0, 0, 0))
    points = [(10 + 40 * step, rng.randint(20, 80)) for step in range(8)]
    ImageDraw.Draw(image).line(points, fill=(20, 20, 80, 255), width=3)
    out = io.BytesIO()
    image.save(out, format="PNG")
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode()


def _pdf(name: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, PDF, content_type="application/pdf")


def _training(rng, fse, today: dt.date, *, months_ago: int, new_hire: bool) -> None:
    held_on = add_months(today, -months_ago)[0]
    session = services.training_session_record(
        establishment=fse,
        held_on=held_on,
        trainer=rng.choice(TRAINERS),
        subjects=list(TRAINING_SUBJECTS),
        language=rng.choice(["en", "en", "es"]),
        acting_user=ACTING,
    )
    for name in rng.sample(EMPLOYEES, rng.randint(2, 5)):
        services.training_attendance_sign(
            session=session,
            employee_name=name,
            hire_date=held_on - dt.timedelta(days=rng.randint(30, 900)),
            signature=_signature(rng),
            acting_user=ACTING,
        )
    if new_hire:
        # Hired last week and not yet trained: late under C4 ("at the time of hiring").
        services.employee_add(
            establishment=fse, name="Alex Moreno", hire_date=today - dt.timedelta(days=7), acting_user=ACTING
        )


def _pickups(rng, fse, today: dt.date, hauler) -> None:
    for months_ago in (1, 2, 4):
        # Two months ago an approved recycler took the oil; otherwise the licensed hauler, if any.
        by_hauler = hauler is not None and months_ago != 2
        services.oil_pickup_record(
            establishment=fse,
            picked_up_on=add_months(today, -months_ago)[0],
            gallons=Decimal(rng.choice([30, 45, 55, 60])),
            hauler=hauler if by_hauler else None,
            recycler_name="" if by_hauler else rng.choice(RECYCLERS),
            receipt=_pdf("receipt.pdf") if months_ago == 1 else None,
            acting_user=ACTING,
        )


def _reports_in_every_state(fse, today: dt.date) -> None:
    """Monthly self-monitoring since five months ago: the first two missing (late, a finding each
    after the sweep), then one accepted, one corrected after review and one awaiting review."""
    monthly = services.requirement_set(
        establishment=fse,
        kind="self_monitoring",
        unit="months",
        every=1,
        first_due_on=add_months(today, -5)[0],
        requested_on=add_months(today, -6)[0],
        description="Grease interceptor effluent sampling: FOG (mg/L), pH and temperature.",
        # Also a condition of its permit, when it holds one in force (listed on the permit).
        permit_condition=Permit.objects.filter(
            establishment=fse, status__in=(PermitStatus.ISSUED, PermitStatus.SUSPENDED)
        ).exists(),
        acting_user=ACTING,
    )
    accepted = services.submission_submit(
        requirement=monthly, period_number=3, uploaded_file=_pdf("sampling-3.pdf"), acting_user=ACTING
    )
    services.submission_review(
        submission=accepted, outcome=SubmissionReview.Outcome.ACCEPTED, acting_user=ACTING
    )
    wanting = services.submission_submit(
        requirement=monthly, period_number=4, uploaded_file=_pdf("sampling-4.pdf"), acting_user=ACTING
    )
    services.submission_review(
        submission=wanting,
        outcome=SubmissionReview.Outcome.NEEDS_CORRECTION,
        reason="The lab's chain-of-custody page is missing.",
        acting_user=ACTING,
    )
    services.submission_correct(
        original=wanting, uploaded_file=_pdf("sampling-4-complete.pdf"), acting_user=ACTING
    )
    services.submission_submit(
        requirement=monthly, period_number=5, uploaded_file=_pdf("sampling-5.pdf"), acting_user=ACTING
    )
    services.requirement_set(
        establishment=fse,
        kind="contingency_plan",
        first_due_on=today + dt.timedelta(days=45),
        requested_on=today,
        description="How a spill or an interceptor failure is contained and reported (D7, J1).",
        acting_user=ACTING,
    )


def seed(*, rng: random.Random, town, today: dt.date) -> None:
    """Records in every state for the demo FSE and a dozen others; then the nightly sweep."""
    active = town.active_establishments
    demo_fse = town.fse_establishment or active[0]
    _training(rng, demo_fse, today, months_ago=13, new_hire=True)
    _pickups(rng, demo_fse, today, town.demo_hauler)
    _reports_in_every_state(demo_fse, today)
    others = [fse for fse in active if fse.pk != demo_fse.pk]
    for index, fse in enumerate(rng.sample(others, min(12, len(others)))):
        if index % 4 != 3:  # one in four has never recorded a training (due now)
            _training(rng, fse, today, months_ago=rng.choice([2, 6, 11, 14]), new_hire=index % 5 == 0)
        _pickups(rng, fse, today, rng.choice(town.haulers) if town.haulers else None)
        if index % 3 == 0:
            bmp = services.requirement_set(
                establishment=fse,
                kind="bmp_status",
                unit="months",
                every=3,
                first_due_on=add_months(today, -4)[0],
                requested_on=add_months(today, -5)[0],
                acting_user=ACTING,
            )
            submission = services.submission_submit(
                requirement=bmp, uploaded_file=_pdf("bmp.pdf"), acting_user=ACTING
            )
            services.submission_review(submission=submission, outcome="accepted", acting_user=ACTING)
        if index % 4 == 1:
            services.requirement_set(
                establishment=fse,
                kind="frequency_data",
                requested_on=today - dt.timedelta(days=40),
                acting_user=ACTING,
            )
        if index % 6 == 2:
            cctv = services.requirement_set(
                establishment=fse,
                kind="cctv",
                first_due_on=today - dt.timedelta(days=10),
                requested_on=today - dt.timedelta(days=60),
                acting_user=ACTING,
            )
            services.submission_submit(requirement=cctv, uploaded_file=_pdf("cctv.pdf"), acting_user=ACTING)
    services.late_reports_sweep(today=today, acting_user=ACTING)
    services.late_training_sweep(today=today, acting_user=ACTING)
