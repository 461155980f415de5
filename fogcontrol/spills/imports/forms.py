from django import forms


class SpillImportForm(forms.Form):
    file = forms.FileField(
        help_text="A CIWQS file as the State publishes it (tab-separated .txt): PLSD, SSO or PRA."
    )
    agency = forms.CharField(max_length=20, required=False, label="Only this agency (WDID)")
