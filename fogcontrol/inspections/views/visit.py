"""One inspection: its page, the phone form (autosaved through htmx), completing it, photos,
assigning, cancelling, and a follow-up visit."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from fogcontrol.audit.selectors import change_history
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.views import found
from fogcontrol.findings.models import Finding
from fogcontrol.findings.selectors import findings_of_source
from fogcontrol.inspections import selectors, services
from fogcontrol.inspections.actions import inspection_actions
from fogcontrol.inspections.forms import AssignForm, CancelForm, draft_changes
from fogcontrol.inspections.roles import require_step
from fogcontrol.program.selectors import town_today, town_zone
from fogcontrol.records.obligations import obligations_for
from fogcontrol.rules import inspections as rules
from fogcontrol.rules.records import LATE

SITE_SECTIONS = (rules.SECTION_RECORDS, rules.SECTION_BMP, rules.SECTION_PROHIBITED)


def _item_rows(items, answers, notes, corrected, photos):
    return [
        {
            "key": item.key,
            "label": item.label,
            "provision": item.provision,
            "answer": answers.get(item.key, ""),
            "note": notes.get(item.key, ""),
            "corrected": item.key in corrected,
            "photos": photos.get(item.key, []),
        }
        for item in items
    ]


def form_context(inspection) -> dict:
    """The checklist as rows the template walks: sections of site items and one block per device."""
    photos: dict = {}
    for photo in inspection.photos.all():
        photos.setdefault(photo.item or "", []).append(photo)
    notes, corrected = inspection.item_notes, set(inspection.corrected_items)
    sections = [
        {
            "key": section,
            "title": rules.SECTIONS[section],
            "items": _item_rows(rules.section_items(section), inspection.answers, notes, corrected, photos),
        }
        for section in SITE_SECTIONS
    ]
    devices = [
        {
            "assessment": assessment,
            "device": assessment.device,
            "items": [
                {**row, "name": f"d{assessment.device_id}_{row['key']}"}
                for row in _item_rows(
                    rules.section_items(rules.SECTION_DEVICE, assessment.device.kind),
                    assessment.answers,
                    {},
                    set(),
                    {},
                )
            ],
            "photos": [p for p in inspection.photos.all() if p.device_id == assessment.device_id],
        }
        for assessment in inspection.assessments.all()
    ]
    return {"sections": sections, "devices": devices}


def _local(value):
    return timezone.localtime(value, town_zone()).strftime("%Y-%m-%dT%H:%M") if value else ""


@login_required
def inspection_detail(request, pk: int):
    inspection = found(selectors.inspection_detail, request.user, pk)
    findings = list(
        findings_of_source(request.user, source=Finding.Source.INSPECTION, source_id=inspection.pk)
    )
    context = {
        "inspection": inspection,
        "actions": inspection_actions(request.user, inspection),
        "findings": findings,
        "assign_form": AssignForm(
            initial={"inspector": inspection.inspector_id, "scheduled_on": inspection.scheduled_on}
        ),
        "cancel_form": CancelForm(),
        "history": change_history(request.user, inspection),
        **form_context(inspection),
    }
    return render(request, "inspections/inspection_detail.html", context)


def _edit_page(request, inspection, *, errors=None, key=None, status=200):
    actions = inspection_actions(request.user, inspection)
    if not actions["edit"]:
        raise Http404("No such form.")
    context = {
        "inspection": inspection,
        "actions": actions,
        "key": key or uuid.uuid4().hex,
        "errors": errors or {},
        "started_local": _local(inspection.started_at),
        "finished_local": _local(inspection.finished_at),
        "open_findings": list(selectors.open_findings_of(request.user, inspection.establishment_id)),
        "conditions": inspection.assessments.model.Condition.choices,
        **form_context(inspection),
        **_obligations(inspection),
    }
    return render(request, "inspections/inspection_form.html", context, status=status)


def _obligations(inspection) -> dict:
    """What the FSE owes today (the records app's list), for the panel the inspector opens on site."""
    items = obligations_for(inspection.establishment, on=town_today())
    return {"obligations": items, "obligations_late": sum(1 for item in items if item.status == LATE)}


@login_required
def inspection_edit(request, pk: int):
    """The phone form. GET shows it; an htmx POST autosaves the draft and answers a small partial
    (saved, or what is wrong), with each device's 25% result updated on the spot (E3)."""
    inspection = found(selectors.inspection_detail, request.user, pk)
    # The form is for those who fill in visits: another role that sees the visit is refused (403).
    require_step(request.user, "partial_update")
    if request.method != "POST":
        return _edit_page(request, inspection)
    status, conflict = 200, None
    try:
        services.inspection_save_draft(
            inspection=inspection, acting_user=request.user, changes=draft_changes(request.POST, inspection)
        )
        error = None
    except ValidationError as exc:
        error = exc
    except PermissionDenied as exc:
        return HttpResponseForbidden(str(exc))
    except StateConflict as exc:
        # An autosave that arrives after "Complete inspection" (or a cancel): nothing changes, and
        # the save status says why (409; app.js lets htmx show a 409's answer).
        error, status, conflict = None, 409, str(exc)
    inspection = selectors.inspection_detail(request.user, pk)
    return render(
        request,
        "inspections/partials/saved.html",
        {
            "inspection": inspection,
            "error": error,
            "conflict": conflict,
            "saved_at": timezone.localtime(timezone.now(), town_zone()),
        },
        status=status,
    )


@login_required
@require_POST
def inspection_complete(request, pk: int):
    """Save what the form holds, then complete with the form's key: a resent form (the same key)
    lands on the same report; a refusal shows the form again with the reasons, the draft kept."""
    inspection = found(selectors.inspection_detail, request.user, pk)
    require_step(request.user, "complete")
    key = request.POST.get("idempotency_key", "")
    try:
        if inspection.is_draft:
            services.inspection_save_draft(
                inspection=inspection,
                acting_user=request.user,
                changes=draft_changes(request.POST, inspection),
            )
        inspection = services.inspection_complete(
            inspection=inspection, acting_user=request.user, idempotency_key=key
        )
    except ValidationError as exc:
        inspection = selectors.inspection_detail(request.user, pk)
        errors = exc.message_dict if hasattr(exc, "error_dict") else {"__all__": exc.messages}
        return _edit_page(request, inspection, errors=errors, key=key, status=400)
    except StateConflict as exc:
        messages.error(request, str(exc))
        return redirect("inspections:detail", pk)
    messages.success(request, _("Inspection completed; the report is ready."))
    return redirect("inspections:detail", inspection.pk)


@login_required
@require_POST
def photo_upload(request, pk: int):
    inspection = found(selectors.inspection_detail, request.user, pk)
    require_step(request.user, "photos")
    try:
        services.photo_add(
            inspection=inspection,
            acting_user=request.user,
            file=request.FILES.get("photo"),
            item=request.POST.get("item", ""),
            device_id=int(request.POST["device"]) if request.POST.get("device", "").isdigit() else None,
            caption=request.POST.get("caption", ""),
        )
        messages.success(request, _("Photo added."))
    except (ValidationError, AttributeError, TypeError) as exc:
        # Refused: the form again, with what is wrong above it, as a 400 (as every page refuses).
        problem = " ".join(exc.messages) if isinstance(exc, ValidationError) else "Choose a photo to add."
        messages.error(request, problem)
        return _edit_page(request, inspection, status=400)
    return redirect(reverse("inspections:edit", args=[pk]) + "#photos")


@login_required
@require_POST
def assign(request, pk: int):
    inspection = found(selectors.inspection_detail, request.user, pk)
    require_step(request.user, "assign")
    form = AssignForm(request.POST)
    if form.is_valid():
        try:
            services.inspection_assign(inspection=inspection, acting_user=request.user, **form.cleaned_data)
            messages.success(request, _("Assigned."))
        except (ValidationError, StateConflict) as exc:
            messages.error(request, " ".join(getattr(exc, "messages", [str(exc)])))
    else:
        messages.error(request, _("Choose the inspector and the day."))
    return redirect("inspections:detail", pk)


@login_required
@require_POST
def cancel(request, pk: int):
    inspection = found(selectors.inspection_detail, request.user, pk)
    require_step(request.user, "cancel")
    form = CancelForm(request.POST)
    if form.is_valid():
        try:
            services.inspection_cancel(inspection=inspection, acting_user=request.user, **form.cleaned_data)
            messages.success(request, _("Cancelled."))
        except (ValidationError, StateConflict) as exc:
            messages.error(request, " ".join(getattr(exc, "messages", [str(exc)])))
    else:
        messages.error(request, _("Say why the visit is cancelled."))
    return redirect("inspections:detail", pk)


@login_required
@require_POST
def follow_up(request, pk: int):
    """Schedule a follow-up of a completed inspection (its open findings can be closed by it)."""
    inspection = found(selectors.inspection_detail, request.user, pk)
    require_step(request.user, "follow_up")
    form = AssignForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose the inspector and the day."))
        return redirect("inspections:detail", pk)
    try:
        new = services.inspection_schedule(
            establishment=inspection.establishment,
            acting_user=request.user,
            kind="follow_up",
            follow_up_of=inspection,
            **form.cleaned_data,
        )
    except (ValidationError, StateConflict) as exc:
        messages.error(request, " ".join(exc.messages))
        return redirect("inspections:detail", pk)
    return redirect("inspections:detail", new.pk)
