"""The shared form field and form, `{% form_field %}` and `{% form_fields %}` (core/templatetags/form_fields.py).

The markup is pinned to the character: it is what the templates `core/components/form_field.html`
and `form_fields.html` wrote before the tags replaced them (issue 16), blank lines included, so
that no page changed; the expected strings below were written by those templates.
"""

from django import forms
from django.core.exceptions import ValidationError
from django.template import Context, Template
from django.utils.translation import gettext_lazy, override

# The four blank lines each field has always started with (the old template's comments).
LEAD = "\n\n\n\n"


def _digits(value):
    if not value.isdigit():
        raise ValidationError("Digits only.")


def _short(value):
    if len(value) > 3:
        raise ValidationError("At most 3 <characters>.")


class _Form(forms.Form):
    name = forms.CharField(label=gettext_lazy("Notes"), help_text="Letters & <digits>")
    code = forms.CharField(required=False, validators=[_digits, _short])
    notes = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=gettext_lazy("Everyone told is told this."),
    )
    agree = forms.BooleanField(required=False, label="I agree")
    kind = forms.ChoiceField(choices=[("a", "A"), ("b", "B")], widget=forms.RadioSelect, help_text="Pick one")
    token = forms.CharField(widget=forms.HiddenInput, label="Token")

    def clean(self):
        raise ValidationError(["The whole form is wrong.", "Second <thing>."])


BOUND = {"code": "12345x", "notes": "a < b", "agree": "on"}


def _render(source: str, **context) -> str:
    return Template("{% load form_fields %}" + source).render(Context(context))


def _kind(legend: str, required: str) -> str:
    return (
        f'{LEAD}\n<fieldset class="field has-error" aria-describedby="id_kind_error id_kind_helptext">\n'
        f"  <legend>{legend} *</legend>\n"
        '  <div id="id_kind"><div>\n'
        '    <label for="id_kind_0"><input type="radio" name="kind" value="a" required aria-invalid="true" id="id_kind_0">\n'
        " A</label>\n\n</div><div>\n"
        '    <label for="id_kind_1"><input type="radio" name="kind" value="b" required aria-invalid="true" id="id_kind_1">\n'
        " B</label>\n\n</div>\n</div>\n\n"
        f'  <p class="field-error" id="id_kind_error">{required}</p>\n'
        '  <small class="muted" id="id_kind_helptext">Pick one</small>\n'
        "</fieldset>\n"
    )


def _code_each_error(label: str) -> str:
    return (
        f'{LEAD}\n<div class="field has-error">\n  \n'
        f'  <label for="id_code">{label}</label>\n'
        '  <input type="text" name="code" value="12345x" aria-invalid="true" aria-describedby="id_code_error" id="id_code">\n'
        "  \n\n"
        '  <div class="field-errors" id="id_code_error"><p class="field-error">Digits only.</p>'
        '<p class="field-error">At most 3 &lt;characters&gt;.</p></div>\n  \n  \n'
        "</div>\n"
    )


def _name(label: str, required: str) -> str:
    return (
        f'{LEAD}\n<div class="field has-error">\n  \n'
        f'  <label for="id_name">{label} *</label>\n'
        '  <input type="text" name="name" required aria-invalid="true" '
        'aria-describedby="id_name_helptext id_name_error" id="id_name">\n'
        "  \n\n"
        f'  <p class="field-error" id="id_name_error">{required}</p>\n'
        '  <small class="muted" id="id_name_helptext">Letters &amp; &lt;digits&gt;</small>\n'
        "</div>\n"
    )


def test_a_field_each_way_a_field_is_written():
    """Each error in its own paragraph; a label worded for the page; a group of choices as a
    fieldset, carrying aria-describedby itself."""
    html = _render(
        '{% form_field form.code each_error=True %}|{% form_field form.name label="Taken on" %}|{% form_field form.kind %}',
        form=_Form(BOUND),
    )
    required = "This field is required."
    assert html.split("|") == [_code_each_error("Code"), _name("Taken on", required), _kind("Kind", required)]


def test_in_spanish_the_labels_and_djangos_messages_are_translated():
    with override("es"):
        html = _render(
            '{% form_field form.code each_error=True %}|{% form_field form.name label="Taken on" %}|{% form_field form.kind %}',
            form=_Form(BOUND),
        )
    required = "Este campo es requerido."
    assert html.split("|") == [
        _code_each_error("Código"),
        _name("Tomada el", required),
        _kind("Tipo", required),
    ]


def _code_joined() -> str:
    return (
        f'{LEAD}\n<div class="field has-error">\n  \n'
        '  <label for="id_code">Code</label>\n'
        '  <input type="text" name="code" value="12345x" aria-invalid="true" aria-describedby="id_code_error" id="id_code">\n'
        "  \n\n"
        '  <p class="field-error" id="id_code_error">Digits only. At most 3 &lt;characters&gt;.</p>\n  \n'
        "</div>\n"
    )


def _notes() -> str:
    return (
        f'{LEAD}\n<div class="field wide">\n  \n'
        '  <label for="id_notes">Notes</label>\n'
        '  <textarea name="notes" cols="40" rows="2" aria-describedby="id_notes_helptext" id="id_notes">\n'
        "a &lt; b</textarea>\n"
        "  \n\n  \n"
        '  <small class="muted" id="id_notes_helptext">Everyone told is told this.</small>\n'
        "</div>\n"
    )


def _agree(checked: str) -> str:
    return (
        f'{LEAD}\n<div class="field">\n  \n'
        f'  <label for="id_agree"><input type="checkbox" name="agree" id="id_agree"{checked}> I agree</label>\n'
        "  \n\n  \n  \n"
        "</div>\n"
    )


def test_a_form_with_errors_its_summary_its_fields_and_its_hidden_field():
    html = _render("{% form_fields form %}", form=_Form(BOUND))
    required = "This field is required."
    summary = (
        "\n"
        '<p class="error" role="alert">Please correct the fields marked below. Nothing has been saved yet.</p>\n'
        '<ul class="errorlist nonfield"><li>The whole form is wrong.</li><li>Second &lt;thing&gt;.</li></ul>\n\n'
        '<p class="error" role="alert">Token: This field is required.</p>\n'
    )
    fields = [_name("Notes", required), _code_joined(), _notes(), _agree(" checked"), _kind("Kind", required)]
    hidden = '<input type="hidden" name="token" id="id_token">\n'
    assert html == summary + '<div class="formgrid">\n' + "".join(fields) + "\n</div>\n" + hidden


def test_a_kept_draft_is_said_and_only_the_fields_asked_for_are_written():
    draft = _render("{% form_fields form draft_saved=True %}", form=_Form(BOUND))
    assert draft.startswith(
        "\n"
        '<p class="error" role="alert">Your draft is saved, but it cannot be submitted yet: '
        "complete the fields marked below.</p>\n"
    )
    form = _Form()
    html = _render("{% form_fields form fields=some %}", form=form, some=[form["code"], form["agree"]])
    code = (
        f'{LEAD}\n<div class="field">\n  \n'
        '  <label for="id_code">Code</label>\n'
        '  <input type="text" name="code" id="id_code">\n'
        "  \n\n  \n  \n"
        "</div>\n"
    )
    hidden = '<input type="hidden" name="token" id="id_token">\n'
    assert html == "\n\n\n\n\n" + '<div class="formgrid">\n' + code + _agree("") + "\n</div>\n" + hidden
