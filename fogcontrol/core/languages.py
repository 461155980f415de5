"""The languages the program writes to its contacts in: each party and user has a preference
(English by default), and each message template is kept in both (docs/messaging.md)."""

from django.db import models


class Language(models.TextChoices):
    ENGLISH = "en", "English"
    SPANISH = "es", "Español (Spanish)"


DEFAULT_LANGUAGE = Language.ENGLISH
