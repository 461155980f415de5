"""The inspection pages' forms: scheduling and assigning (Django forms), and the phone form read
into the changes a draft takes (``draft_changes``), named so a whole section posts at once."""

from __future__ import annotations

import datetime as dt

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from fogcontrol.inspections.models import ComplianceCharge, Inspection
from fogcontrol.inspections.selectors import inspector_choices
from fogcontrol.program.selectors import town_zone
from fogcontrol.rules import inspections as rules

SITE_SECTIONS = (rules.SECTION_RECORDS, rules.SECTION_BMP, rules.SECTION_PROHIBITED)


class ScheduleForm(forms.Form):
    kind = forms.ChoiceField(choices=Inspection.Kind.choices, initial=Inspection.Kind.ROUTINE)
    scheduled_on = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    inspector = forms.ModelChoiceField(queryset=None, required=False, empty_label=_("Not yet assigned"))
    complaint = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["inspector"].queryset = inspector_choices()


class AssignForm(forms.Form):
    inspector = forms.ModelChoiceField(queryset=None, empty_label=None)
    scheduled_on = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["inspector"].queryset = inspector_choices()


class CancelForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))


def _when(raw: str | None) -> dt.datetime | None:
    """A ``datetime-local`` value, read in the Town's time zone."""
    if not raw:
        return None
    try:
        value = dt.datetime.fromisoformat(raw)
    except ValueError:
        return None
    return timezone.make_aware(value, town_zone()) if timezone.is_naive(value) else value


def draft_changes(post, inspection: Inspection) -> dict:
    """The phone form's fields as the changes a draft takes. Radio ``a_<item>`` answers a site
    item, ``n_<item>`` notes it, ``c_<item>`` marks it corrected on the spot; ``d<device>_...``
    holds a device's depths, items, condition and notes; ``closes`` the findings a follow-up found
    corrected. A signature is sent only when drawn anew."""
    changes: dict = {
        "started_at": _when(post.get("started_at")),
        "finished_at": _when(post.get("finished_at")),
        "entry": post.get("entry") or Inspection.Entry.GRANTED,
        "entry_delay_minutes": int(post["entry_delay_minutes"])
        if post.get("entry_delay_minutes", "").isdigit()
        else None,
        "entry_note": post.get("entry_note", ""),
        "notes": post.get("notes", ""),
        "person_met": post.get("person_met", ""),
        "inspector_signed_name": post.get("inspector_signed_name", ""),
        "fse_signed_name": post.get("fse_signed_name", ""),
        "fse_declined_to_sign": post.get("fse_declined_to_sign") == "on",
        "inspector_signature": post.get("inspector_signature", ""),
        "fse_signature": post.get("fse_signature", ""),
    }
    answers, notes, corrected = {}, {}, []
    for section in SITE_SECTIONS:
        for item in rules.section_items(section):
            if post.get(f"a_{item.key}"):
                answers[item.key] = post[f"a_{item.key}"]
    for key in [*rules.ITEMS, rules.FILL_ITEM]:
        if post.get(f"n_{key}", "").strip():
            notes[key] = post[f"n_{key}"]
        if post.get(f"c_{key}") == "on":
            corrected.append(key)
    changes.update(answers=answers, item_notes=notes, corrected_items=corrected)
    changes["closes_findings"] = [int(pk) for pk in post.getlist("closes") if pk.isdigit()]
    devices = {}
    for assessment in inspection.assessments.all():
        prefix = f"d{assessment.device_id}_"
        device_answers = {
            item.key: post[f"{prefix}{item.key}"]
            for item in rules.section_items(rules.SECTION_DEVICE, assessment.device.kind)
            if post.get(f"{prefix}{item.key}")
        }
        devices[assessment.device_id] = {
            "fog_depth_in": post.get(f"{prefix}fog", ""),
            "solids_depth_in": post.get(f"{prefix}solids", ""),
            "answers": device_answers,
            "condition": post.get(f"{prefix}condition", ""),
            "notes": post.get(f"{prefix}notes", ""),
        }
    changes["devices"] = devices
    return changes


class ComplianceChargeForm(forms.Form):
    """D6: a charge for a cost the Town incurred through an FSE's non-compliance."""

    establishment = forms.ModelChoiceField(queryset=None, empty_label=_("Choose the establishment"))
    kind = forms.ChoiceField(choices=ComplianceCharge.Kind.choices)
    quantity = forms.DecimalField(
        min_value=0,
        max_digits=8,
        decimal_places=2,
        help_text=_("Hours (inspection, staff time), samples or tests."),
    )
    incurred_on = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label=_("Incurred on"))
    reason = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 2}),
        label=_("The case"),
        help_text=_("What non-compliance caused the cost."),
    )
    inspection = forms.IntegerField(
        required=False,
        min_value=1,
        label=_("Inspection id"),
        help_text=_("The inspection it came from, if any."),
    )

    def __init__(self, *args, establishments, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["establishment"].queryset = establishments


class ChargeCancelForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label=_("Why it is cancelled"))
