"""Billing's page forms. The services judge the values; these only parse them."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from fogcontrol.billing.models import InvoiceDelivery, InvoiceKind, Payment, invoice_kind_choices
from fogcontrol.program.selectors import ruleset_on, town_today

DATE = forms.DateInput(attrs={"type": "date"})
MONEY = {"min_value": 0, "decimal_places": 2, "max_digits": 12}


class ChargeForm(forms.Form):
    description = forms.CharField(max_length=300)
    amount = forms.DecimalField(label=_("Amount ($)"), **MONEY)
    provision = forms.CharField(
        max_length=16, help_text=_("The provision it is billed under (e.g. D6, O2, N1).")
    )
    invoice_kind = forms.ChoiceField(label=_("Billed under"), choices=InvoiceKind.choices)
    penalty = forms.BooleanField(required=False, label=_("Penalty monies (P12: the penalty account)"))
    assessed_on = forms.DateField(widget=DATE)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["invoice_kind"].choices = invoice_kind_choices(ruleset_on(town_today()))


class InvoiceIssueForm(forms.Form):
    notice_date = forms.DateField(widget=DATE, help_text=_("The date of the notice (Q1: due on receipt)."))


class PaymentForm(forms.Form):
    amount = forms.DecimalField(label=_("Amount ($)"), **MONEY)
    method = forms.ChoiceField(choices=Payment.Method.choices)
    reference = forms.CharField(
        required=False, max_length=100, help_text=_("Cheque number, card reference or transfer reference.")
    )
    received_on = forms.DateField(widget=DATE)
    notes = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))
    apply_to = forms.TypedChoiceField(
        required=False, coerce=int, empty_value=None, label=_("Apply to"),
        help_text=_("The oldest open invoice first, unless you choose one; what is left is held as credit."),
    )  # fmt: skip

    def __init__(self, *args, invoices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["apply_to"].choices = [("", _("The oldest invoice first"))] + [
            (invoice.pk, f"{invoice.number} (owes ${invoice.outstanding:.2f})") for invoice in invoices
        ]


class RefundForm(forms.Form):
    amount = forms.DecimalField(label=_("Amount ($)"), **MONEY)
    method = forms.ChoiceField(choices=Payment.Method.choices)
    reference = forms.CharField(required=False, max_length=100)
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))


class DeliveryForm(forms.Form):
    method = forms.ChoiceField(choices=InvoiceDelivery.Method.choices)
    sent_to = forms.CharField(max_length=300, help_text=_("The email address or the postal address."))
    sent_on = forms.DateField(widget=DATE)


class WriteOffForm(forms.Form):
    amount = forms.DecimalField(label=_("Amount ($)"), **MONEY)
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}))


class DecisionForm(forms.Form):
    approve = forms.TypedChoiceField(
        choices=[("yes", _("Approve")), ("no", _("Refuse"))],
        coerce=lambda value: value == "yes",
        widget=forms.RadioSelect,
    )
    note = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))


class LienRequestForm(forms.Form):
    note = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}))


class LienDocumentForm(forms.Form):
    on = forms.DateField(label=_("Recorded on"), widget=DATE)
    document_number = forms.CharField(max_length=64, help_text=_("The County Recorder's document number."))


class LienReleaseForm(LienDocumentForm):
    on = forms.DateField(label=_("Released on"), widget=DATE)
