from django import forms
from django.utils.translation import gettext_lazy as _

from fogcontrol.feeds.models import FeedToken


class FeedForm(forms.Form):
    """A new feed: which calendar, and a name to tell it apart (the kinds offered are the user's)."""

    kind = forms.ChoiceField(label=_("Calendar"), choices=FeedToken.Kind.choices)
    label = forms.CharField(label=_("Name (optional)"), max_length=100, required=False,
                            help_text=_("For example the phone or calendar app it goes into."))  # fmt: skip

    def __init__(self, *args, kinds=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [(kind, FeedToken.Kind(kind).label) for kind in kinds]
