"""Every write to the program's settings: the Town profile, its calendar and its ruleset versions.

Keyword-only arguments, an acting user (a User, or a label such as "seed_demo" for commands), one
transaction, an audit entry with before and after. Only the FOG Manager changes these settings.

Bad input raises django's ValidationError naming the field (400 in the API, the message beside
the field in a page). A ruleset version names the ordinance or resolution that adopted it and its
adoption date, and each value lies within the range declared for it (``ruleset_bounds``): the
page, the API and the admin all come here, so none of them can store a number out of range. Changing a ruleset version that is, or was, in force raises
``RulesetVersionLocked`` (409 in the API): decisions already made are judged by the rules in force
when they were made, so those rules must stay as they were.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.core.exceptions import ValidationError
from django.db import transaction

from fogcontrol.audit.services import audit_record, snapshot
from fogcontrol.core.actors import person
from fogcontrol.core.concurrency import check_fresh, save_versioned
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role
from fogcontrol.core.roles import Role
from fogcontrol.program.models import Holiday, RulesetVersion, TownProfile
from fogcontrol.program.ruleset_bounds import bounds_for, bounds_problem
from fogcontrol.program.selectors import town_profile, town_today
from fogcontrol.rules.holidays import standard_town_holidays
from fogcontrol.rules.ruleset import CHAPTER_10_02, Ruleset

PROFILE_FIELDS = (
    "name",
    "time_zone",
    "office_hours",
    "wastewater_division_phone",
    "after_hours_emergency_phone",
    "code_enforcement_phone",
    "fog_manager_name",
    "fog_manager_address",
    "fog_manager_email",
    "fog_manager_phone",
    "nightly_sweep_at",
)

# Years the holiday calendar accepts: wide enough for any real deadline, narrow enough to catch typos.
FIRST_CALENDAR_YEAR = 2000
LAST_CALENDAR_YEAR = 2100


class RulesetVersionLocked(StateConflict):
    """A ruleset version already in effect cannot be changed or deleted (only future ones can)."""


def _require_fog_manager(acting_user) -> None:
    require_role(acting_user, [Role.FOG_MANAGER], "Only the FOG Manager may change the program's settings.")


# --- Town profile (B2, J1, J2) ------------------------------------------------------------------


def validate_time_zone(name: str) -> None:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValidationError(
            {"time_zone": f"{name!r} is not a time zone name. Use a name such as America/Los_Angeles."}
        ) from exc


@transaction.atomic
def town_profile_update(*, acting_user, expected_version: int | None = None, **fields) -> TownProfile:
    """Change the Town profile: the name, time zone and office hours, and the spill contact numbers
    and FOG Manager address every permit prints (B2, J1, J2). Refused (`StaleRecord`, 409) if the
    profile moved past the `expected_version` its editor read (fogcontrol/core/concurrency.py)."""
    _require_fog_manager(acting_user)
    unknown = sorted(set(fields) - set(PROFILE_FIELDS))
    if unknown:
        raise ValidationError({name: "This is not a Town profile field." for name in unknown})
    profile = town_profile()
    before = snapshot(profile)
    for name, value in fields.items():
        setattr(profile, name, value.strip() if isinstance(value, str) else value)
    if "time_zone" in fields:
        validate_time_zone(profile.time_zone)
    profile.full_clean()
    # updated_at always changes; only a real change is worth a save and an entry.
    if {k: v for k, v in before.items() if k != "updated_at"} == {
        k: v for k, v in snapshot(profile).items() if k != "updated_at"
    }:
        check_fresh(profile, expected_version)
        return profile
    save_versioned(profile, expected_version=expected_version)
    audit_record(
        acting_user=acting_user,
        action="town_profile.update",
        instance=profile,
        before=before,
        after=snapshot(profile),
    )
    return profile


# --- Holidays and closure days (Counting days) --------------------------------------------------


def _check_year(year: int) -> None:
    if not isinstance(year, int) or not FIRST_CALENDAR_YEAR <= year <= LAST_CALENDAR_YEAR:
        raise ValidationError(
            {"year": f"Give a year between {FIRST_CALENDAR_YEAR} and {LAST_CALENDAR_YEAR}, e.g. 2027."}
        )


@transaction.atomic
def holiday_add(*, acting_user, date: dt.date, name: str, kind: str = Holiday.Kind.CLOSURE) -> Holiday:
    """Close the Town's offices on ``date``: a holiday or a closure day (a 9/80 Friday).

    Business-day counts (J2, M3) and the CCP §12a roll of calendar-day deadlines skip it from now on.
    """
    _require_fog_manager(acting_user)
    if isinstance(date, dt.date):
        _check_year(date.year)
        existing = Holiday.objects.filter(date=date).first()
        if existing is not None:
            raise ValidationError(
                {
                    "date": f"{date:%Y-%m-%d} is already on the calendar as {existing.name}. Edit that day instead."
                }
            )
    holiday = Holiday(date=date, name=(name or "").strip(), kind=kind)
    holiday.full_clean()
    holiday.save()
    audit_record(acting_user=acting_user, action="holiday.add", instance=holiday, after=snapshot(holiday))
    return holiday


@transaction.atomic
def holiday_update(*, acting_user, holiday: Holiday, date: dt.date, name: str, kind: str) -> Holiday:
    """Correct a closed day: its date, name or kind (a holiday re-dated by the Council, a closure
    renamed). Counting follows the calendar as it now stands."""
    _require_fog_manager(acting_user)
    holiday = Holiday.objects.select_for_update().get(pk=holiday.pk)
    if isinstance(date, dt.date):
        _check_year(date.year)
        clash = Holiday.objects.filter(date=date).exclude(pk=holiday.pk).first()
        if clash is not None:
            raise ValidationError(
                {"date": f"{date:%Y-%m-%d} is already on the calendar as {clash.name}. Choose another day."}
            )
    before = snapshot(holiday)
    holiday.date, holiday.name, holiday.kind = date, (name or "").strip(), kind
    holiday.full_clean()
    holiday.save()
    audit_record(
        acting_user=acting_user,
        action="holiday.update",
        instance=holiday,
        before=before,
        after=snapshot(holiday),
    )
    return holiday


@transaction.atomic
def holiday_remove(*, acting_user, holiday: Holiday) -> None:
    """Open the offices again on a day that was closed: business-day counting includes it again."""
    _require_fog_manager(acting_user)
    before = snapshot(holiday)
    audit_record(acting_user=acting_user, action="holiday.remove", instance=holiday, before=before)
    holiday.delete()


@transaction.atomic
def holidays_install_standard(*, year: int, acting_user) -> list[Holiday]:
    """Add the usual California municipal holidays of ``year`` (fogcontrol.rules.holidays).

    Days already on the calendar are left as they are (the Town may have renamed or re-dated one),
    so installing a year twice adds nothing. Returns the holidays added.
    """
    _require_fog_manager(acting_user)
    _check_year(year)
    standard = standard_town_holidays(year)
    taken = set(Holiday.objects.filter(date__in=list(standard)).values_list("date", flat=True))
    added = Holiday.objects.bulk_create(
        [
            Holiday(date=day, name=name, kind=Holiday.Kind.HOLIDAY)
            for day, name in standard.items()
            if day not in taken
        ]
    )
    # bulk_create sets primary keys on SQLite and PostgreSQL; re-read so every entry names its row.
    added = list(Holiday.objects.filter(date__in=[h.date for h in added]))
    for holiday in added:
        audit_record(
            acting_user=acting_user,
            action="holiday.add",
            instance=holiday,
            after=snapshot(holiday),
            note=f"Standard holidays of {year}",
        )
    return added


# --- Ruleset versions ---------------------------------------------------------------------------


def _check_value(name: str, value: Any) -> str | None:
    """Why a converted value is unusable, or None: its shape first, then its declared range
    (fogcontrol.program.ruleset_bounds). A value with no declared range must not be negative."""
    if isinstance(value, bool):
        return None
    if isinstance(value, decimal.Decimal) and not value.is_finite():
        return f"Give a number, e.g. {getattr(CHAPTER_10_02, name)}."
    if isinstance(value, dict):
        if not value:
            return "Give at least one line of name: value."
        for key, item in value.items():
            if not isinstance(key, str) or not key.strip():
                return "Each name must be some text, e.g. hand_sink."
            if isinstance(item, bool) or not isinstance(item, int) or item < 1:
                return f"{key}: give a positive whole number."
    if isinstance(value, tuple):
        if not value:
            return "Give at least one value."
        if isinstance(value[0], tuple):
            if any(len(pair) != 2 or min(pair) <= 0 for pair in value):
                return "Each line is two positive whole numbers: fixture units and gallons."
            if list(value) != sorted(value) or len({a for a, _ in value}) != len(value):
                return "List the lines in increasing order of fixture units, each once."
        elif list(value) != sorted(set(value)):
            return "List the values in increasing order, each once."
    if bounds_for(name) is not None:
        return bounds_problem(name, value)
    numbers = value if isinstance(value, tuple) and not isinstance(value[0], tuple) else (value,)
    if any(isinstance(number, int | decimal.Decimal) and number < 0 for number in numbers):
        return "Must be 0 or more."
    return None


def clean_ruleset_values(values: Any) -> dict[str, Any]:
    """Check a version's values and return only what differs from Chapter 10.02 as adopted.

    ``values`` maps ruleset field names to JSON values (``Ruleset.to_dict`` form); a missing name
    takes the adopted value. Raises ValidationError naming each bad value, with how to fix it.
    """
    if not isinstance(values, dict):
        raise ValidationError({"values": "Give the values as an object of name: value."})
    known = {field.name for field in dataclasses.fields(Ruleset)}
    errors: dict[str, str] = {}
    for name in sorted(set(values) - known):
        errors[name] = "Not a ruleset value. See /api/v1/program/rulesets/in-force/ for the names."
    converted: dict[str, Any] = {}
    for name in sorted(set(values) & known):
        if isinstance(getattr(CHAPTER_10_02, name), dict) and not isinstance(values[name], dict):
            errors[name] = _format_hint(name)
            continue
        try:
            one = Ruleset.from_dict({name: values[name]})
        except (ValueError, TypeError, decimal.InvalidOperation, AttributeError):
            errors[name] = _format_hint(name)
            continue
        value = getattr(one, name)
        problem = _check_value(name, value)
        if problem:
            errors[name] = problem
        else:
            converted[name] = value
    ruleset = CHAPTER_10_02.replace(**converted)
    if "revocation_hearing_min_days" not in errors and "revocation_hearing_max_days" not in errors:
        if ruleset.revocation_hearing_min_days > ruleset.revocation_hearing_max_days:
            errors["revocation_hearing_max_days"] = (
                "The latest hearing day must not come before the earliest (L2)."
            )
    if errors:
        raise ValidationError(errors)
    adopted = CHAPTER_10_02.to_dict()
    return {name: value for name, value in ruleset.to_dict().items() if value != adopted[name]}


def _format_hint(name: str) -> str:
    default = getattr(CHAPTER_10_02, name)
    if isinstance(default, dict):
        return 'Give an object of name: whole number, e.g. {"hand_sink": 1}.'
    if isinstance(default, tuple) and default and isinstance(default[0], tuple):
        return "Give pairs of whole numbers, e.g. [[8, 500], [21, 750]]."
    if isinstance(default, tuple):
        return "Give a list of whole numbers, e.g. [30, 60, 90]."
    if isinstance(default, decimal.Decimal):
        return f"Give a number, e.g. {default}."
    if isinstance(default, dt.date):
        return "Give a date as YYYY-MM-DD."
    return f"Give a whole number, e.g. {default}."


def ruleset_version_is_locked(version: RulesetVersion, *, today: dt.date) -> bool:
    """In effect on or before ``today``: read-only, because old decisions are judged by it."""
    return version.effective_from <= today


ADOPTION_REFERENCE_MISSING = (
    "Give the number of the ordinance or resolution that adopted this version, e.g. Ord. No. 571 or "
    "Res. 2026-41: the program's numbers change only by an act of the Town Council."
)
ADOPTED_ON_MISSING = "Give the day the Town Council adopted the ordinance or resolution, as YYYY-MM-DD."


def _version_errors(
    *, effective_from: Any, adoption_reference: Any, adopted_on: Any, today: dt.date, exclude_pk: int | None
) -> dict[str, str]:
    """What is missing or wrong in a version's dates and adoption, by field.

    A version records numbers the Town Council has adopted (its ordinance or resolution and the day),
    and takes effect after today: decisions already made are judged by the rules then in force.
    """
    errors: dict[str, str] = {}
    if not isinstance(adoption_reference, str) or not adoption_reference.strip():
        errors["adoption_reference"] = ADOPTION_REFERENCE_MISSING
    if effective_from is None:
        errors["effective_from"] = "Give the day this version takes effect, as YYYY-MM-DD, after today."
    elif isinstance(effective_from, dt.date):
        if effective_from <= today:
            errors["effective_from"] = (
                f"A version must take effect after today ({today:%Y-%m-%d}): decisions already made are "
                "judged by the rules in force when they were made. Choose tomorrow or a later date."
            )
        else:
            clash = (
                RulesetVersion.objects.filter(effective_from=effective_from).exclude(pk=exclude_pk).first()
            )
            if clash is not None:
                errors["effective_from"] = (
                    f"{clash.label} already takes effect on that date. Edit that version or choose another date."
                )
    if adopted_on is None:
        errors["adopted_on"] = ADOPTED_ON_MISSING
    elif isinstance(adopted_on, dt.date) and adopted_on > today:
        # Adopted on or before today and in force after today: never in force before its adoption.
        errors["adopted_on"] = (
            f"The adoption date {adopted_on:%Y-%m-%d} is after today ({today:%Y-%m-%d}): record the "
            "version once the Town Council has adopted it."
        )
    return errors


@transaction.atomic
def ruleset_version_create(
    *,
    acting_user,
    effective_from: dt.date,
    label: str,
    values: dict[str, Any],
    adoption_reference: str = "",
    adopted_on: dt.date | None = None,
    notes: str = "",
) -> RulesetVersion:
    """A new version of the program's numbers, in force from ``effective_from`` (a future date).

    It names the ordinance or resolution that adopted it and the adoption date, and every value lies
    within its declared range (fogcontrol.program.ruleset_bounds); otherwise ValidationError names
    each field that is missing or wrong. Every bold number of PROVISIONS.md is read from the version
    in force on the day judged (``ruleset_on``), so the change applies from its effective date on
    and never before.
    """
    _require_fog_manager(acting_user)
    today = town_today()
    errors: dict[str, Any] = {}
    cleaned: dict[str, Any] = {}
    try:
        cleaned = clean_ruleset_values(values)
    except ValidationError as error:
        errors.update(error.message_dict)
    errors.update(
        _version_errors(
            effective_from=effective_from,
            adoption_reference=adoption_reference,
            adopted_on=adopted_on,
            today=today,
            exclude_pk=None,
        )
    )
    if errors:
        raise ValidationError(errors)
    version = RulesetVersion(
        effective_from=effective_from,
        label=(label or "").strip(),
        adoption_reference=adoption_reference.strip(),
        adopted_on=adopted_on,
        values=cleaned,
        notes=notes or "",
        created_by=person(acting_user),
    )
    version.full_clean()
    version.save()
    audit_record(
        acting_user=acting_user, action="ruleset_version.create", instance=version, after=snapshot(version)
    )
    return version


def ruleset_version_locked_reason(version: RulesetVersion) -> str:
    return (
        f"{version.label} took effect on {version.effective_from:%Y-%m-%d} and is read-only: decisions "
        "made while it was in force are judged by it. Create a new version with a future effective date."
    )


def _lock_check(version: RulesetVersion, today: dt.date) -> None:
    if ruleset_version_is_locked(version, today=today):
        raise RulesetVersionLocked(ruleset_version_locked_reason(version))


VERSION_FIELDS = frozenset({"effective_from", "label", "values", "notes", "adoption_reference", "adopted_on"})


@transaction.atomic
def ruleset_version_update(
    *, acting_user, version: RulesetVersion, expected_version: int | None = None, **fields
) -> RulesetVersion:
    """Change a version that has not yet taken effect (label, notes, values, effective date, and the
    ordinance or resolution that adopted it), under the same checks as a new version. Saved only if
    it still has the `expected_version` its editor read (core/concurrency.py): else 409."""
    _require_fog_manager(acting_user)
    version = RulesetVersion.objects.select_for_update().get(pk=version.pk)
    today = town_today()
    _lock_check(version, today)
    unknown = sorted(set(fields) - VERSION_FIELDS)
    if unknown:
        raise ValidationError({name: "This is not a field of a ruleset version." for name in unknown})
    before = snapshot(version)
    errors: dict[str, Any] = {}
    if "values" in fields:
        try:
            fields["values"] = clean_ruleset_values(fields["values"])
        except ValidationError as error:
            errors.update(error.message_dict)
    for name, value in fields.items():
        stripped = name in ("label", "adoption_reference") and isinstance(value, str)
        setattr(version, name, value.strip() if stripped else value)
    errors.update(
        _version_errors(
            effective_from=version.effective_from,
            adoption_reference=version.adoption_reference,
            adopted_on=version.adopted_on,
            today=today,
            exclude_pk=version.pk,
        )
    )
    if errors:
        raise ValidationError(errors)
    version.full_clean()
    after = snapshot(version)
    if before == after:
        check_fresh(version, expected_version)  # nothing to save, but a stale copy is still told
        return version
    save_versioned(version, expected_version=expected_version)
    audit_record(
        acting_user=acting_user, action="ruleset_version.update", instance=version, before=before, after=after
    )
    return version


@transaction.atomic
def ruleset_version_delete(*, acting_user, version: RulesetVersion) -> None:
    """Withdraw a version that has not yet taken effect."""
    _require_fog_manager(acting_user)
    version = RulesetVersion.objects.select_for_update().get(pk=version.pk)
    _lock_check(version, town_today())
    audit_record(
        acting_user=acting_user, action="ruleset_version.delete", instance=version, before=snapshot(version)
    )
    version.delete()
