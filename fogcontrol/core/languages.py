"""The languages the program writes to its contacts in: each party and user has a preference
(English by default), and each message template is kept in both (docs/messaging.md)."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Language(models.TextChoices):
    ENGLISH = "en", _("English")
    SPANISH = "es", _("Español (Spanish)")


DEFAULT_LANGUAGE = Language.ENGLISH

# How each language writes a date in full on a printed document ("May 4, 2026", "4 de mayo de 2026").
DATE_FORMATS = {"en": "F j, Y", "es": r"j \d\e F \d\e Y"}


def language_of(*people) -> str:
    """The language of the first of ``people`` (users or registry parties, None skipped) who
    prefers one the program writes in; English when none does."""
    for someone in people:
        language = getattr(someone, "preferred_language", None)
        if language in Language.values:
            return language
    return DEFAULT_LANGUAGE.value


def document_language(user, *recipients, asked: str | None = None) -> str:
    """The language a document for outside recipients prints in (issue 18, as the permit PDF): the
    one ``asked`` for (a download's ``?language=``), else an outside user downloading it reads their
    own preference; staff who print it get the recipient's (the first of ``recipients`` with a
    preference), so the letter goes out in the language its reader chose."""
    if asked in Language.values:
        return asked
    if user is not None and not getattr(user, "is_program_staff", True):
        return language_of(user)
    return language_of(*recipients)


def establishment_recipient(establishment):
    """Who receives an establishment's documents: its contact, else its operator (None if neither)."""
    if establishment is None:
        return None
    return getattr(establishment, "contact", None) or getattr(establishment, "operator", None)


def document_date(day, language: str) -> str:
    """A date written in full in ``language`` ("May 4, 2026", "4 de mayo de 2026")."""
    from django.utils import dateformat, translation

    language = language if language in DATE_FORMATS else DEFAULT_LANGUAGE.value
    with translation.override(language):
        return dateformat.format(day, DATE_FORMATS[language])
