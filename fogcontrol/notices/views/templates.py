"""Template pages: the registered documents, a document's versions, a version, and editing a draft
with a live preview (htmx). Town staff read them; the FOG Manager and the Hearing Officer draft and
edit; anyone else is told they do not exist (404)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from fogcontrol.core.errors import StaleRecord
from fogcontrol.core.exports import Export
from fogcontrol.core.forms import show_service_errors
from fogcontrol.core.permissions import has_role, require_role
from fogcontrol.core.views import found, render_list, staff_only
from fogcontrol.notices import catalogue, selectors, services
from fogcontrol.notices.exports import TEMPLATE_COLUMNS
from fogcontrol.notices.forms import TemplateVersionForm
from fogcontrol.notices.rendering import render as render_text
from fogcontrol.notices.rendering import template_problems
from fogcontrol.notices.roles import EDITORS_ONLY, TEMPLATE_EDITORS
from fogcontrol.program.selectors import town_today


def _registration(key: str):
    try:
        return catalogue.registered(key)
    except catalogue.NotRegistered:
        raise Http404("No such document.") from None


@login_required
def template_list(request):
    staff_only(request.user)
    today = town_today()
    rows = selectors.template_overview(request.user, today)
    export = Export("document-templates", TEMPLATE_COLUMNS, rows)
    return render_list(request, "notices/template_list.html", {"rows": rows, "today": today}, export=export)


@login_required
def template_detail(request, key: str):
    staff_only(request.user)
    registration = _registration(key)
    today = town_today()
    versions = list(selectors.template_versions(request.user, key))
    in_force = selectors.version_in_force(versions, today)
    has_draft = any(v.effective_from > today for v in versions)
    context = {
        "registration": registration,
        "versions": versions,
        "in_force": in_force,
        "today": today,
        "can_draft": has_role(request.user, TEMPLATE_EDITORS) and not has_draft,
    }
    return render(request, "notices/template_detail.html", context)


@login_required
@require_POST
def template_draft(request, key: str):
    staff_only(request.user)
    _registration(key)
    require_role(request.user, TEMPLATE_EDITORS, EDITORS_ONLY)
    try:
        draft = services.template_version_draft(acting_user=request.user, key=key)
    except services.TemplateVersionLocked as error:
        messages.error(request, str(error))
        return redirect("notices:template", key=key)
    messages.success(request, f"Version {draft.version} drafted from the latest one: edit it below.")
    return redirect("notices:version_edit", pk=draft.pk)


def _version_context(request, version, **extra):
    today = town_today()
    return {
        "version": version,
        "registration": catalogue.registered(version.key),
        "locked": version.effective_from <= today,
        "can_edit": has_role(request.user, TEMPLATE_EDITORS) and version.effective_from > today,
        "today": today,
        **extra,
    }


@login_required
def version_detail(request, pk: int):
    staff_only(request.user)
    version = found(selectors.template_version_detail, request.user, pk)
    _registration(version.key)
    return render(request, "notices/version_detail.html", _version_context(request, version))


def _preview(registration, title: str, body: str) -> dict:
    """The wording filled with each placeholder's name, or what is wrong with it."""
    problems = template_problems(title, allowed=registration.placeholders) + template_problems(
        body, allowed=registration.placeholders
    )
    if problems:
        return {"problems": problems}
    sample = {name: f"[{name}]" for name in registration.placeholders}
    return {"title": render_text(title, sample), "body": render_text(body, sample)}


@login_required
def version_edit(request, pk: int):
    staff_only(request.user)
    version = found(selectors.template_version_detail, request.user, pk)
    registration = _registration(version.key)
    require_role(request.user, TEMPLATE_EDITORS, EDITORS_ONLY)
    if version.effective_from <= town_today():
        messages.error(request, f"Version {version.version} is in force and read-only: draft a new version.")
        return render(request, "notices/version_detail.html", _version_context(request, version), status=409)
    initial = {
        "title": version.title,
        "body": version.body,
        "effective_from": version.effective_from,
        "adopted_by": version.adopted_by,
    }
    form = TemplateVersionForm(request.POST or None, initial=initial, instance=version)
    preview_url = reverse("notices:version_preview", args=[version.pk])
    for name in ("title", "body"):
        form.fields[name].widget.attrs.update(
            {"hx-post": preview_url, "hx-trigger": "input changed delay:400ms", "hx-target": "#preview",
             "hx-swap": "outerHTML", "hx-include": "closest form"}
        )  # fmt: skip
    status = 200
    if request.method == "POST" and form.is_valid():
        fields = {name: value for name, value in form.cleaned_data.items() if name != "version"}
        try:
            services.template_version_update(
                acting_user=request.user, template=version, expected_version=form.expected_version(), **fields
            )
        except StaleRecord as refusal:
            # Someone saved the draft since this page was opened: input kept, nothing overwritten.
            form.refused_as_stale(refusal)
            status = 409
        except services.TemplateVersionLocked as error:
            messages.error(request, str(error))
            return render(
                request, "notices/version_detail.html", _version_context(request, version), status=409
            )
        except ValidationError as error:
            show_service_errors(form, error)
        else:
            messages.success(request, f"Version {version.version} is saved.")
            return redirect("notices:version", pk=version.pk)
    data = form.data if form.is_bound else initial
    preview = _preview(registration, data.get("title", ""), data.get("body", ""))
    return render(
        request,
        "notices/version_edit.html",
        _version_context(request, version, form=form, preview=preview),
        status=status,
    )


@login_required
@require_POST
def version_preview(request, pk: int):
    """The live preview (htmx): the posted wording filled in, or what is wrong with it. Saves nothing."""
    staff_only(request.user)
    version = found(selectors.template_version_detail, request.user, pk)
    registration = _registration(version.key)
    require_role(request.user, TEMPLATE_EDITORS, EDITORS_ONLY)
    preview = _preview(registration, request.POST.get("title", ""), request.POST.get("body", ""))
    return render(request, "notices/partials/preview.html", {"preview": preview})
