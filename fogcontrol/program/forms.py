"""Forms of the program settings pages. They read and check input; the services do the writing."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from fogcontrol.core.concurrency import VersionedFormMixin
from fogcontrol.program.models import Holiday, TownProfile
from fogcontrol.program.ruleset_bounds import range_text
from fogcontrol.program.ruleset_fields import GROUPS, field_info, group_key
from fogcontrol.program.services import (
    ADOPTED_ON_MISSING,
    ADOPTION_REFERENCE_MISSING,
    FIRST_CALENDAR_YEAR,
    LAST_CALENDAR_YEAR,
    PROFILE_FIELDS,
)
from fogcontrol.rules.ruleset import Ruleset


class TownProfileForm(VersionedFormMixin, forms.ModelForm):
    class Meta:
        model = TownProfile
        fields = list(PROFILE_FIELDS)
        labels = {
            "wastewater_division_phone": _("Waste Water Division phone (J1)"),
            "after_hours_emergency_phone": _("After-hours emergency line (J1)"),
            "fog_manager_address": _("FOG Manager mailing address for written notices (B2, J2)"),
            "time_zone": _("Time zone"),
        }
        help_texts = {"time_zone": _("A time zone name such as America/Los_Angeles.")}
        widgets = {
            "fog_manager_address": forms.Textarea(attrs={"rows": 3}),
            "nightly_sweep_at": forms.TimeInput(attrs={"type": _("time")}, format="%H:%M"),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Left out of a form posted before the setting existed: the time stays as it was.
        self.fields["nightly_sweep_at"].required = False

    def clean_nightly_sweep_at(self):
        return self.cleaned_data["nightly_sweep_at"] or self.instance.nightly_sweep_at


class HolidayForm(forms.ModelForm):
    class Meta:
        model = Holiday
        fields = ["date", "name", "kind"]
        widgets = {"date": forms.DateInput(attrs={"type": "date"})}
        labels = {"kind": _("Kind of day")}
        help_texts = {"name": _("e.g. 9/80 closure Friday, or Cesar Chavez Day.")}

    def validate_unique(self):
        # The service refuses a day already closed, naming the holiday that holds it.
        pass


class InstallYearForm(forms.Form):
    year = forms.IntegerField(min_value=FIRST_CALENDAR_YEAR, max_value=LAST_CALENDAR_YEAR)


# --- Ruleset version form: one input per value of the ruleset ----------------------------------

_PAIR = re.compile(r"^\s*(\d+)\s*[:=,]\s*(\d+)\s*$")
_NAMED = re.compile(r"^\s*([A-Za-z0-9_ ./-]*[A-Za-z0-9_])\s*[:=]\s*(\d+)\s*$")


def _field_for(name: str, default: Any) -> forms.Field:
    info = field_info(name)
    label = f"{info.provision} · {info.label}" if info.provision else info.label
    # The unit, and the range the services allow (fogcontrol.program.ruleset_bounds).
    allowed = range_text(name)
    each = "each number " if isinstance(default, dict | tuple) else ""
    help_text = f"Allowed: {each}{allowed}." if allowed else info.unit
    if isinstance(default, dict):
        return forms.CharField(
            label=label,
            widget=forms.Textarea(attrs={"rows": 8}),
            help_text=f"One line each: name: whole number, e.g. hand_sink: 1. {help_text}".strip(),
        )
    if isinstance(default, tuple) and default and isinstance(default[0], tuple):
        return forms.CharField(
            label=label,
            widget=forms.Textarea(attrs={"rows": 6}),
            help_text=f"One line each: fixture units: gallons, e.g. 8: 500. {help_text}".strip(),
        )
    if isinstance(default, tuple):
        return forms.CharField(
            label=label, help_text=f"Separate values with commas, e.g. 30, 60, 90. {help_text}".strip()
        )
    # No min or max here: the services refuse a value outside its range with a message naming the
    # provision and the range, the same in the page, the API and the admin.
    if isinstance(default, Decimal):
        return forms.DecimalField(label=label, help_text=help_text)
    if isinstance(default, dt.date):
        return forms.DateField(label=label, widget=forms.DateInput(attrs={"type": "date"}))
    return forms.IntegerField(label=label, help_text=help_text)


def ruleset_initial(ruleset: Ruleset) -> dict[str, Any]:
    """A ruleset's values as the form shows them."""
    initial: dict[str, Any] = {}
    for field in dataclasses.fields(Ruleset):
        value = getattr(ruleset, field.name)
        if isinstance(value, dict):
            initial[field.name] = "\n".join(f"{key}: {item}" for key, item in value.items())
        elif isinstance(value, tuple) and value and isinstance(value[0], tuple):
            initial[field.name] = "\n".join(f"{a}: {b}" for a, b in value)
        elif isinstance(value, tuple):
            initial[field.name] = ", ".join(str(item) for item in value)
        else:
            initial[field.name] = value
    return initial


class RulesetVersionForm(VersionedFormMixin, forms.Form):
    """The version's effective date, label and notes, then every value of the ruleset. Editing a
    version (`instance=`), it carries the version it was opened at (core/concurrency.py)."""

    effective_from = forms.DateField(
        label=_("Takes effect on"),
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("A future date: versions already in effect are read-only."),
    )
    label = forms.CharField(
        max_length=200, help_text=_("e.g. Resolution 2026-41: fees delinquent after 30 days")
    )
    adoption_reference = forms.CharField(
        label=_("Adopting ordinance or resolution"),
        max_length=100,
        help_text=_("The number the Town Council gave it, e.g. Ord. No. 571 or Res. 2026-41."),
        error_messages={"required": ADOPTION_REFERENCE_MISSING},
    )
    adopted_on = forms.DateField(
        label=_("Adopted on"),
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("The day the Town Council adopted it: today or earlier."),
        error_messages={"required": ADOPTED_ON_MISSING},
    )
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args, instance=None, **kwargs):
        self.instance = instance
        super().__init__(*args, **kwargs)
        defaults = Ruleset()
        for field in dataclasses.fields(Ruleset):
            self.fields[field.name] = _field_for(field.name, getattr(defaults, field.name))

    @property
    def value_groups(self) -> list[tuple[str, list]]:
        """The value inputs grouped as PROVISIONS.md groups them, in its order."""
        groups: dict[str, list] = {key: [] for key in GROUPS}
        for field in dataclasses.fields(Ruleset):
            groups[group_key(field_info(field.name).provision)].append(self[field.name])
        return [(GROUPS[key], fields) for key, fields in groups.items() if fields]

    def _clean_list(self, name: str) -> list[int]:
        raw = self.cleaned_data.get(name, "")
        try:
            return [int(part) for part in re.split(r"[,\s]+", raw.strip()) if part]
        except ValueError as exc:
            raise forms.ValidationError(
                _("Give whole numbers separated by commas, e.g. 30, 60, 90.")
            ) from exc

    def _clean_pairs(self, name: str) -> list[list[int]]:
        pairs = []
        for number, line in enumerate(self.cleaned_data.get(name, "").splitlines(), start=1):
            if not line.strip():
                continue
            match = _PAIR.match(line)
            if not match:
                raise forms.ValidationError(f"Line {number}: write fixture units: gallons, e.g. 8: 500.")
            pairs.append([int(match.group(1)), int(match.group(2))])
        return pairs

    def _clean_mapping(self, name: str) -> dict[str, int]:
        mapping: dict[str, int] = {}
        for number, line in enumerate(self.cleaned_data.get(name, "").splitlines(), start=1):
            if not line.strip():
                continue
            match = _NAMED.match(line)
            if not match:
                raise forms.ValidationError(f"Line {number}: write name: whole number, e.g. hand_sink: 1.")
            mapping[match.group(1)] = int(match.group(2))
        return mapping

    def clean(self):
        cleaned = super().clean()
        defaults = Ruleset()
        for field in dataclasses.fields(Ruleset):
            default = getattr(defaults, field.name)
            if field.name not in cleaned:
                continue
            try:
                if isinstance(default, dict):
                    cleaned[field.name] = self._clean_mapping(field.name)
                elif isinstance(default, tuple) and default and isinstance(default[0], tuple):
                    cleaned[field.name] = self._clean_pairs(field.name)
                elif isinstance(default, tuple):
                    cleaned[field.name] = self._clean_list(field.name)
            except forms.ValidationError as error:
                self.add_error(field.name, error)
        return cleaned

    def ruleset_values(self) -> dict[str, Any]:
        """The values as JSON (``Ruleset.to_dict`` form), for ``clean_ruleset_values``."""
        values: dict[str, Any] = {}
        for field in dataclasses.fields(Ruleset):
            value = self.cleaned_data[field.name]
            if isinstance(value, Decimal):
                value = str(value)
            elif isinstance(value, dt.date):
                value = value.isoformat()
            values[field.name] = value
        return values
