"""The languages the program writes to its contacts in: each party and user has a preference
(English by default), and each message template is kept in both (docs/messaging.md)."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Language(models.TextChoices):
    ENGLISH = "en", _("English")
    SPANISH = "es", _("Español (Spanish)")


DEFAULT_LANGUAGE = Language.ENGLISH
