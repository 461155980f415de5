"""Pages for the FSE's own records: what the FSE owes (the obligations list), its records and the
forms to add them, a training session's roster signed on screen, a submission with its review and
correction, staff's review queue, and the waste-oil pickups (also the hauler portal's). Thin: each
calls one selector or service and renders; a service's refusal is shown beside the field."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from fogcontrol.core.exports import Export
from fogcontrol.core.forms import show_service_errors
from fogcontrol.core.permissions import has_role
from fogcontrol.core.views import found, paginate, render_list, staff_only
from fogcontrol.program.selectors import town_today
from fogcontrol.records import exports, selectors, services
from fogcontrol.records.actions import submission_actions
from fogcontrol.records.forms import (
    CorrectionForm,
    OilPickupForm,
    RequirementForm,
    ReviewForm,
    SignForm,
    SubmissionForm,
    TrainingSessionForm,
)
from fogcontrol.records.obligations import obligations_for
from fogcontrol.records.roles import (
    PICKUP_RECORDERS,
    PICKUP_STEPS,
    RECORD_KEEPERS,
    REQUIREMENT_SETTERS,
    REQUIREMENT_STEPS,
    SUBMISSION_STEPS,
    TRAINING_STEPS,
    require_step,
)
from fogcontrol.registry.models import HaulerCompany

PER_PAGE = 50


@login_required
def home(request):
    """Staff: the review queue. Others: the establishments whose records they keep."""
    if request.user.is_program_staff:
        return redirect("records:review_queue")
    establishments = selectors.pickup_establishments(request.user)
    return render(request, "records/home.html", {"establishments": establishments})


@login_required
def obligations(request, pk):
    """Everything the FSE owes and when, late first, each with how to fix it (C4, C5, D7, E9, F3 …)."""
    establishment = found(selectors.establishment_for, request.user, pk)
    on = town_today()
    return render(
        request,
        "records/obligations.html",
        {"establishment": establishment, "on": on, "items": obligations_for(establishment, on=on)},
    )


def _records_context(request, establishment, **forms):
    user = request.user
    requirements = selectors.requirement_list(user).filter(establishment=establishment)
    context = {
        "establishment": establishment,
        "sessions": selectors.training_session_list(user).filter(establishment=establishment)[:20],
        "pickups": selectors.oil_pickup_list(user).filter(establishment=establishment)[:20],
        "requirements": requirements,
        "submissions": selectors.submission_list(user).filter(requirement__establishment=establishment)[:30],
        "can_keep": has_role(user, RECORD_KEEPERS),
        "can_set": has_role(user, REQUIREMENT_SETTERS),
        "training_form": forms.get("training_form") or TrainingSessionForm(initial={"held_on": town_today()}),
        "pickup_form": forms.get("pickup_form")
        or OilPickupForm(
            haulers=HaulerCompany.objects.visible_to(user), initial={"picked_up_on": town_today()}
        ),
        "submission_form": forms.get("submission_form") or SubmissionForm(requirements=requirements),
        "requirement_form": forms.get("requirement_form") or RequirementForm(),
    }
    return context


@login_required
def establishment_records(request, pk):
    """The FSE's records: training, pickups, requirements and submissions with their outcomes."""
    establishment = found(selectors.establishment_for, request.user, pk)
    return render(request, "records/establishment.html", _records_context(request, establishment))


def _establishment_for_step(request, pk, steps):
    """The establishment (404 outside the scope), once the role may take the step at all (403),
    before the form is bound: a refused role learns that, not what its input lacked."""
    establishment = found(selectors.establishment_for, request.user, pk)
    require_step(request.user, steps, "create")
    return establishment


def _post(request, establishment, form, name, call):
    """Run ``call(form.cleaned_data)`` for a valid form; otherwise (or on a refusal) show the page
    again with the messages beside the fields (400)."""
    if form.is_valid():
        try:
            call(establishment, form.cleaned_data)
        except ValidationError as error:
            show_service_errors(form, error)
        else:
            return redirect("records:establishment", pk=establishment.pk)
    return render(
        request,
        "records/establishment.html",
        _records_context(request, establishment, **{name: form}),
        status=400,
    )


@login_required
@require_POST
def training_add(request, pk):
    establishment = _establishment_for_step(request, pk, TRAINING_STEPS)
    form = TrainingSessionForm(request.POST, request.FILES)
    return _post(
        request, establishment, form, "training_form",
        lambda fse, data: services.training_session_record(
            establishment=fse, acting_user=request.user, signed_sheet=data.pop("signed_sheet") or None, **data
        ),
    )  # fmt: skip


@login_required
@require_POST
def pickup_add(request, pk):
    establishment = _establishment_for_step(request, pk, PICKUP_STEPS)
    form = OilPickupForm(request.POST, request.FILES, haulers=HaulerCompany.objects.visible_to(request.user))
    return _post(
        request, establishment, form, "pickup_form",
        lambda fse, data: services.oil_pickup_record(
            establishment=fse, acting_user=request.user, receipt=data.pop("receipt") or None, **data
        ),
    )  # fmt: skip


@login_required
@require_POST
def requirement_add(request, pk):
    establishment = _establishment_for_step(request, pk, REQUIREMENT_STEPS)
    form = RequirementForm(request.POST)
    return _post(
        request, establishment, form, "requirement_form",
        lambda fse, data: services.requirement_set(
            establishment=fse, acting_user=request.user, kind=data["kind"], unit=data["unit"],
            every=data["every"] or 0, first_due_on=data["first_due_on"], description=data["description"],
            permit_condition=data["permit_condition"],
        ),
    )  # fmt: skip


@login_required
@require_POST
def submission_add(request, pk):
    establishment = _establishment_for_step(request, pk, SUBMISSION_STEPS)
    requirements = selectors.requirement_list(request.user).filter(establishment=establishment)
    form = SubmissionForm(request.POST, request.FILES, requirements=requirements)
    return _post(
        request, establishment, form, "submission_form",
        lambda fse, data: services.submission_submit(
            requirement=data["requirement"], uploaded_file=data["file"], note=data["note"], acting_user=request.user
        ),
    )  # fmt: skip


@login_required
def session_detail(request, pk):
    """A training session and its roster; the FSE adds employees, each signing on screen (C4)."""
    session = found(selectors.training_session_detail, request.user, pk)
    form = SignForm()
    status = 200
    if request.method == "POST":
        require_step(request.user, TRAINING_STEPS, "sign")
        form = SignForm(request.POST)
        if form.is_valid():
            try:
                services.training_attendance_sign(
                    session=session, acting_user=request.user, **form.cleaned_data
                )
            except ValidationError as error:
                show_service_errors(form, error)
            else:
                return redirect("records:session", pk=session.pk)
        status = 400
    context = {"session": session, "form": form, "can_keep": has_role(request.user, RECORD_KEEPERS)}
    return render(request, "records/session.html", context, status=status)


@login_required
def submission_detail(request, pk):
    """A submission (a copy of record), its review and its corrections; staff review it, the FSE
    corrects it when asked."""
    submission = found(selectors.submission_detail, request.user, pk)
    review = getattr(submission, "review", None)
    review_form, correction_form, status = ReviewForm(), CorrectionForm(), 200
    if request.method == "POST":
        require_step(
            request.user, SUBMISSION_STEPS, "review" if request.POST.get("step") == "review" else "correct"
        )
        try:
            if request.POST.get("step") == "review":
                review_form = ReviewForm(request.POST)
                if review_form.is_valid():
                    services.submission_review(
                        submission=submission, acting_user=request.user, **review_form.cleaned_data
                    )
                    return redirect("records:submission", pk=submission.pk)
            else:
                correction_form = CorrectionForm(request.POST, request.FILES)
                if correction_form.is_valid():
                    correction = services.submission_correct(
                        original=submission, uploaded_file=correction_form.cleaned_data["file"],
                        note=correction_form.cleaned_data["note"], acting_user=request.user,
                    )  # fmt: skip
                    return redirect("records:submission", pk=correction.pk)
        except ValidationError as error:
            show_service_errors(
                review_form if request.POST.get("step") == "review" else correction_form, error
            )
        status = 400
    context = {
        "submission": submission,
        "review": review,
        "review_form": review_form,
        "correction_form": correction_form,
        "actions": submission_actions(request.user, submission),
        "retention": selectors.submission_retention(submission),
    }
    return render(request, "records/submission.html", context, status=status)


@login_required
def review_queue(request):
    """Staff: submissions waiting for review, oldest first."""
    staff_only(request.user)
    rows = selectors.review_queue(request.user)
    page = paginate(request, rows, PER_PAGE)
    export = Export("records-to-review", exports.REVIEW_QUEUE_COLUMNS, rows)
    return render_list(request, "records/review_queue.html", {"page": page}, export=export)


@login_required
def pickup_list(request):
    """C2 waste-oil pickups the user may see; an FSE or a hauler (the recycler) records one here."""
    user = request.user
    rows = selectors.oil_pickup_list(user)
    page = paginate(request, rows, PER_PAGE)
    haulers = HaulerCompany.objects.visible_to(user)
    form = OilPickupForm(haulers=haulers, initial={"picked_up_on": town_today()})
    status = 200
    if request.method == "POST":
        if user.is_program_staff or not has_role(user, PICKUP_RECORDERS):
            raise PermissionDenied("You may not record pickups.")
        form = OilPickupForm(request.POST, request.FILES, haulers=haulers)
        establishment = (
            selectors.pickup_establishments(user).filter(pk=request.POST.get("establishment") or 0).first()
        )
        if establishment is None:
            form.add_error(None, "Choose one of your establishments (or customers).")
        elif form.is_valid():
            data = form.cleaned_data
            try:
                services.oil_pickup_record(
                    establishment=establishment, acting_user=user, receipt=data.pop("receipt") or None, **data
                )
            except ValidationError as error:
                show_service_errors(form, error)
            else:
                return redirect("records:pickups")
        status = 400
    context = {
        "page": page,
        "form": form,
        # Staff record pickups on an establishment's records page; this form serves the FSE and hauler.
        "establishments": None if user.is_program_staff else selectors.pickup_establishments(user),
    }
    export = Export("oil-pickups", exports.PICKUP_COLUMNS, rows)
    return render_list(request, "records/pickup_list.html", context, status=status, export=export)
