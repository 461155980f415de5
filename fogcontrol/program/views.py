"""The program settings pages: the Town profile, the holiday calendar, the ruleset versions.

Town staff may look; only the FOG Manager changes anything (403 for other staff); anyone else is
told the pages do not exist (404). The views only read through the selectors and write through
the services.
"""

from __future__ import annotations

import datetime as dt

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from fogcontrol.core.errors import StaleRecord
from fogcontrol.core.exports import Export, export_response
from fogcontrol.core.forms import show_service_errors
from fogcontrol.core.permissions import has_role, require_role
from fogcontrol.core.roles import Role
from fogcontrol.program import selectors, services
from fogcontrol.program.exports import HOLIDAY_COLUMNS, RULESET_COLUMNS
from fogcontrol.program.forms import (
    HolidayForm,
    InstallYearForm,
    RulesetVersionForm,
    TownProfileForm,
    ruleset_initial,
)
from fogcontrol.program.ruleset_fields import differences_from_adopted, ruleset_groups


def _require_staff(request) -> None:
    if not selectors.program_settings_visible(request.user):
        raise Http404("No program settings here.")


def _require_fog_manager(request) -> None:
    _require_staff(request)
    require_role(request.user, {Role.FOG_MANAGER}, "Only the FOG Manager may change the program's settings.")


def _can_edit(request) -> bool:
    return has_role(request.user, {Role.FOG_MANAGER})


def _get_or_404(fetch, *args):
    try:
        return fetch(*args)
    except (ObjectDoesNotExist, ValueError, TypeError) as exc:  # ?from=abc is as unknown as ?from=999
        raise Http404("Not found.") from exc


# --- overview and Town profile ------------------------------------------------------------------


@login_required
def program_home(request):
    _require_staff(request)
    today = selectors.town_today()
    version, ruleset = selectors.ruleset_in_force_for(request.user, today)
    upcoming = selectors.ruleset_version_list(request.user).filter(effective_from__gt=today)
    return render(
        request,
        "program/home.html",
        {
            "profile": selectors.town_profile_for(request.user),
            "today": today,
            "version": version,
            "differences": differences_from_adopted(ruleset),
            "upcoming": list(upcoming),
            "holidays_this_year": selectors.holiday_list(request.user, year=today.year).count(),
            "can_edit": _can_edit(request),
        },
    )


@login_required
def profile_detail(request):
    _require_staff(request)
    return render(
        request,
        "program/profile.html",
        {"profile": selectors.town_profile_for(request.user), "can_edit": _can_edit(request)},
    )


@login_required
def profile_edit(request):
    _require_fog_manager(request)
    profile = selectors.town_profile_for(request.user)
    form = TownProfileForm(request.POST or None, instance=profile)
    status = 200
    if request.method == "POST" and form.is_valid():
        fields = {name: form.cleaned_data[name] for name in TownProfileForm.Meta.fields}
        try:
            services.town_profile_update(
                acting_user=request.user, expected_version=form.expected_version(), **fields
            )
        except ValidationError as error:
            form.add_error(None, error)
        except StaleRecord as refusal:
            # Someone saved the profile since this form was opened: input kept, nothing overwritten.
            form.refused_as_stale(refusal)
            status = 409
        else:
            messages.success(request, _("The Town profile is saved."))
            return redirect("program:profile")
    return render(request, "program/profile_form.html", {"form": form}, status=status)


# --- holiday calendar (Counting days) -----------------------------------------------------------


def _year_from(request, default: int) -> int:
    raw = request.GET.get("year") or request.POST.get("year") or ""
    try:
        year = int(raw)
    except ValueError:
        return default
    return year if services.FIRST_CALENDAR_YEAR <= year <= services.LAST_CALENDAR_YEAR else default


def _holiday_page(request, *, year: int, form=None, install_form=None, status=200):
    today = selectors.town_today()
    context = {
        "year": year,
        "years": sorted(set(selectors.holiday_years(request.user)) | {today.year, year}),
        "holidays": list(selectors.holiday_list(request.user, year=year)),
        "form": form or HolidayForm(initial={"kind": "closure"}),
        "install_form": install_form or InstallYearForm(initial={"year": year}),
        "can_edit": _can_edit(request),
        "today": today,
        "exportable": True,
    }
    template = "program/holidays.html#year-panel" if request.htmx else "program/holidays.html"
    return render(request, template, context, status=status)


@login_required
def holiday_list(request):
    _require_staff(request)
    year = _year_from(request, selectors.town_today().year)
    export = Export(f"holidays-{year}", HOLIDAY_COLUMNS, selectors.holiday_list(request.user, year=year))
    return export_response(request, export) or _holiday_page(request, year=year)


@login_required
@require_POST
def holiday_add(request):
    _require_fog_manager(request)
    form = HolidayForm(request.POST)
    year = _year_from(request, selectors.town_today().year)
    if form.is_valid():
        try:
            holiday = services.holiday_add(acting_user=request.user, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, f"Offices closed on {holiday.date:%A, %B %-d, %Y}: {holiday.name}.")
            if not request.htmx:
                return redirect(f"{reverse('program:holidays')}?year={holiday.date.year}")
            return _holiday_page(request, year=holiday.date.year)
    return _holiday_page(request, year=year, form=form)


@login_required
def holiday_edit(request, pk: int):
    """Correct a closed day in place, rather than removing it and adding it again."""
    _require_fog_manager(request)
    holiday = _get_or_404(selectors.holiday_detail, request.user, pk)
    initial = {"date": holiday.date, "name": holiday.name, "kind": holiday.kind}
    form = HolidayForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                holiday = services.holiday_update(
                    acting_user=request.user, holiday=holiday, **form.cleaned_data
                )
            except ValidationError as error:
                show_service_errors(form, error)
            else:
                messages.success(request, f"{holiday.name} is now on {holiday.date:%A, %B %-d, %Y}.")
                return redirect(f"{reverse('program:holidays')}?year={holiday.date.year}")
    return render(request, "program/holiday_form.html", {"form": form, "holiday": holiday}, status=status)


@login_required
@require_POST
def holiday_remove(request, pk: int):
    _require_fog_manager(request)
    holiday = _get_or_404(selectors.holiday_detail, request.user, pk)
    year = holiday.date.year
    services.holiday_remove(acting_user=request.user, holiday=holiday)
    messages.success(request, f"{holiday.name} ({holiday.date:%Y-%m-%d}) removed: the offices count as open.")
    if not request.htmx:
        return redirect(f"{reverse('program:holidays')}?year={year}")
    return _holiday_page(request, year=year)


@login_required
@require_POST
def holiday_install_standard(request):
    _require_fog_manager(request)
    form = InstallYearForm(request.POST)
    if not form.is_valid():
        return _holiday_page(request, year=selectors.town_today().year, install_form=form)
    year = form.cleaned_data["year"]
    added = services.holidays_install_standard(year=year, acting_user=request.user)
    if added:
        messages.success(request, f"{len(added)} standard holidays of {year} added.")
    else:
        messages.info(request, f"Every standard holiday of {year} was already on the calendar.")
    if not request.htmx:
        return redirect(f"{reverse('program:holidays')}?year={year}")
    return _holiday_page(request, year=year)


# --- ruleset versions ---------------------------------------------------------------------------


def _parse_day(raw: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat(raw) if raw else None
    except ValueError:
        return None


@login_required
def ruleset_list(request):
    _require_staff(request)
    today = selectors.town_today()
    on = _parse_day(request.GET.get("on")) or today
    in_force, _found = selectors.ruleset_in_force_for(request.user, on)
    current, _current_found = selectors.ruleset_in_force_for(request.user, today)
    versions = list(selectors.ruleset_version_list(request.user))
    for version in versions:
        version.locked = services.ruleset_version_is_locked(version, today=today)
        version.change_count = len(version.values)
        version.is_current = version == current
    exported = export_response(request, Export("rulesets", RULESET_COLUMNS, versions))
    if exported is not None:
        return exported
    return render(
        request,
        "program/rulesets.html",
        {
            "versions": versions,
            "today": today,
            "on": on,
            "bad_on": bool(request.GET.get("on")) and _parse_day(request.GET.get("on")) is None,
            "in_force": in_force,
            "current": current,
            "can_edit": _can_edit(request),
            "exportable": True,
        },
    )


def _ruleset_detail_page(request, version, *, status=200):
    today = selectors.town_today()
    ruleset = version.as_ruleset()
    return render(
        request,
        "program/ruleset_detail.html",
        {
            "version": version,
            "groups": ruleset_groups(ruleset),
            "differences": differences_from_adopted(ruleset),
            "locked": services.ruleset_version_is_locked(version, today=today),
            "in_force_now": selectors.ruleset_version_on(today) == version,
            "today": today,
            "can_edit": _can_edit(request),
        },
        status=status,
    )


@login_required
def ruleset_detail(request, pk: int):
    _require_staff(request)
    version = _get_or_404(selectors.ruleset_version_detail, request.user, pk)
    return _ruleset_detail_page(request, version)


def _locked_response(request, version, error: services.RulesetVersionLocked):
    messages.error(request, str(error))
    return _ruleset_detail_page(request, version, status=409)


@login_required
def ruleset_create(request):
    _require_fog_manager(request)
    base = None
    if request.GET.get("from"):
        base = _get_or_404(selectors.ruleset_version_detail, request.user, request.GET["from"])
    else:
        base = selectors.ruleset_version_list(request.user).first()
    initial = ruleset_initial(base.as_ruleset() if base else selectors.ruleset_on(selectors.town_today()))
    form = RulesetVersionForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            version = services.ruleset_version_create(
                acting_user=request.user,
                effective_from=form.cleaned_data["effective_from"],
                label=form.cleaned_data["label"],
                adoption_reference=form.cleaned_data["adoption_reference"],
                adopted_on=form.cleaned_data["adopted_on"],
                notes=form.cleaned_data["notes"],
                values=form.ruleset_values(),
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(
                request, f"{version.label} saved: in force from {version.effective_from:%Y-%m-%d}."
            )
            return redirect("program:ruleset", pk=version.pk)
    return render(request, "program/ruleset_form.html", {"form": form, "base": base, "version": None})


@login_required
def ruleset_edit(request, pk: int):
    _require_fog_manager(request)
    version = _get_or_404(selectors.ruleset_version_detail, request.user, pk)
    if services.ruleset_version_is_locked(version, today=selectors.town_today()):
        return _locked_response(
            request, version, services.RulesetVersionLocked(services.ruleset_version_locked_reason(version))
        )
    initial = ruleset_initial(version.as_ruleset())
    initial.update(
        effective_from=version.effective_from,
        label=version.label,
        adoption_reference=version.adoption_reference,
        adopted_on=version.adopted_on,
        notes=version.notes,
    )
    form = RulesetVersionForm(request.POST or None, initial=initial, instance=version)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            services.ruleset_version_update(
                acting_user=request.user,
                version=version,
                expected_version=form.expected_version(),
                effective_from=form.cleaned_data["effective_from"],
                label=form.cleaned_data["label"],
                adoption_reference=form.cleaned_data["adoption_reference"],
                adopted_on=form.cleaned_data["adopted_on"],
                notes=form.cleaned_data["notes"],
                values=form.ruleset_values(),
            )
        except services.RulesetVersionLocked as error:
            return _locked_response(request, version, error)
        except ValidationError as error:
            form.add_error(None, error)
        except StaleRecord as refusal:
            # Someone saved the version since this form was opened: input kept, nothing overwritten.
            form.refused_as_stale(refusal)
            status = 409
        else:
            messages.success(request, _("The version is saved."))
            return redirect("program:ruleset", pk=version.pk)
    context = {"form": form, "base": None, "version": version}
    return render(request, "program/ruleset_form.html", context, status=status)


@login_required
@require_POST
def ruleset_delete(request, pk: int):
    _require_fog_manager(request)
    version = _get_or_404(selectors.ruleset_version_detail, request.user, pk)
    try:
        services.ruleset_version_delete(acting_user=request.user, version=version)
    except services.RulesetVersionLocked as error:
        return _locked_response(request, version, error)
    messages.success(request, f"{version.label} withdrawn.")
    return redirect("program:rulesets")
