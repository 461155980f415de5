"""The form renderer writes every widget exactly as Django's templates do (issue 16).

`core.form_renderer.FormRenderer` writes the input boxes, the textarea and the select in Python;
Django's own `DjangoTemplates` renderer is the oracle: each widget below, with values and
attributes of every kind the templates treat differently, is rendered both ways and compared.
"""

import datetime as dt
from decimal import Decimal

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates, get_default_renderer
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy, override

from fogcontrol.core.form_renderer import FormRenderer

ORACLE = DjangoTemplates()
FAST = FormRenderer()

ATTRS = [
    {},
    {"id": "id_x", "class": "wide", "required": True, "disabled": False},
    {"aria-describedby": "id_x_error id_x_helptext", "aria-invalid": "true", "placeholder": 'a "b" <c> & d'},
    {"data-x": mark_safe("<b>safe</b>"), "min": 0, "max": Decimal("12.5"), "step": "any", "autofocus": True},
    {"data-t": ("a", 1), "data-n": None, "data-d": dt.date(2026, 12, 1), "data-lazy": gettext_lazy("Filter")},
]

INPUTS = [
    forms.TextInput(),
    forms.NumberInput(),
    forms.EmailInput(),
    forms.URLInput(),
    forms.PasswordInput(),
    forms.PasswordInput(render_value=True),
    forms.DateInput(),
    forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    forms.DateTimeInput(),
    forms.TimeInput(),
    forms.SearchInput(),
    forms.TelInput(),
    forms.HiddenInput(),
    forms.ColorInput(),
    forms.CheckboxInput(),
    forms.Textarea(),
    forms.Textarea(attrs={"rows": 3, "cols": 40}),
]

VALUES = [
    None,
    "",
    "plain",
    'quote " and <tag> & amp',
    mark_safe("<i>already safe</i>"),
    0,
    7,
    Decimal("1.50"),
    3.25,
    True,
    False,
    dt.date(2026, 12, 1),
    dt.datetime(2026, 12, 1, 14, 30),
    dt.time(9, 5),
    ("a", 1),
    gettext_lazy("Clear"),
]

CHOICES = [
    [],
    [("", "---------"), ("a", "A"), ("b", 'B "quoted" <b>'), ("c", mark_safe("<i>C</i>"))],
    [(None, "None"), (1, 1), (2, Decimal("2.5")), (3, dt.date(2026, 1, 2)), (True, True)],
    [("", gettext_lazy("Any")), ("open", gettext_lazy("Open")), ("done", "Done & dusted")],
    [("Group <1>", [("x", "X"), ("y", "Y")]), ("z", "Z"), (gettext_lazy("Filter"), [("w", "W")])],
]


def rendered_both_ways(widget, name, value, attrs):
    return (
        widget.render(name, value, attrs=attrs, renderer=FAST),
        widget.render(name, value, attrs=attrs, renderer=ORACLE),
    )


@pytest.mark.parametrize("language", ["en", "es"])
def test_inputs_and_textareas_as_djangos_templates_write_them(language):
    with override(language):
        for widget in INPUTS:
            for value in VALUES:
                for attrs in ATTRS:
                    fast, oracle = rendered_both_ways(widget, "a<name>", value, attrs)
                    assert fast == oracle, (widget, value, attrs)


@pytest.mark.parametrize("language", ["en", "es"])
def test_selects_as_djangos_templates_write_them(language):
    selects = [forms.Select, forms.SelectMultiple, forms.NullBooleanSelect]
    with override(language):
        for widget_class in selects:
            for choices in CHOICES if widget_class is not forms.NullBooleanSelect else [None]:
                widget = widget_class() if choices is None else widget_class(choices=choices)
                values = [None, "", "a", "b", 1, "1", True, "unknown", "true"]
                if widget_class is not forms.NullBooleanSelect:
                    values += [["a", "x"], [1, 2]]
                for value in values:
                    for attrs in ATTRS:
                        fast, oracle = rendered_both_ways(widget, "status", value, attrs)
                        assert fast == oracle, (widget_class, choices, value, attrs)


def test_the_widgets_written_in_python_never_reach_a_template(monkeypatch):
    """The fast path is taken (else the comparisons above prove nothing about it)."""

    def no_template(*args, **kwargs):
        raise AssertionError("rendered by a template")

    monkeypatch.setattr(DjangoTemplates, "render", no_template)
    assert forms.Select(choices=[("a", "A")]).render("s", "a", renderer=FAST).startswith("<select")
    assert forms.TextInput().render("t", "v", renderer=FAST).startswith("<input")
    assert forms.Textarea().render("t", "v", renderer=FAST).startswith("<textarea")


def test_the_project_renders_forms_with_it():
    assert isinstance(get_default_renderer(), FormRenderer)


def test_a_form_renders_the_same_as_a_whole():
    class Everything(forms.Form):
        q = forms.CharField(required=False, help_text="Name or address")
        status = forms.ChoiceField(choices=[("", "Any"), ("open", "Open")], required=False)
        kinds = forms.MultipleChoiceField(choices=[("a", "A"), ("b", "B")], required=False)
        due_by = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
        notes = forms.CharField(widget=forms.Textarea)
        agree = forms.BooleanField()
        radio = forms.ChoiceField(choices=[("1", "One"), ("2", "Two")], widget=forms.RadioSelect)

    for data in [None, {"q": "<x>", "status": "open", "kinds": ["b"], "due_by": "nonsense", "agree": "on"}]:
        fast = str(Everything(data=data, renderer=FAST))
        oracle = str(Everything(data=data, renderer=ORACLE))
        assert fast == oracle
