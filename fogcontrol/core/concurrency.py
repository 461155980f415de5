"""Optimistic concurrency for editable records (docs/architecture.md, "Concurrent edits").

An editable record carries a `version` that every save moves on by one. Whoever edits it holds
the version they read: a page in a hidden form field (`VersionedFormMixin`), an API client in the
ETag of its GET and the `If-Match` header of its PATCH or PUT (`fogcontrol.core.api.versions`).
The service saves through `save_versioned`: inside its transaction, one conditional UPDATE claims
the next version only if the record still has the version the editor read. So of two people
saving from the same copy, one wins and the other gets `StaleRecord` (409, or the page says so
with their input kept); nothing is silently overwritten, on SQLite and PostgreSQL alike, without
holding a lock while a person edits.

A caller that holds no copy (a job, the licence import, a command) passes no version and saves
over whatever is there, as before; its save still moves the version on, so a person editing at
the same time is refused rather than overwriting the job.
"""

from __future__ import annotations

from django import forms
from django.db import models
from django.db.models import F

from fogcontrol.core.errors import StaleRecord

VERSION_FIELD = "version"


def version_field(instance) -> str:
    """The column holding a record's save counter: `version`, or the name a model whose own
    `version` means something else declares as `concurrency_field` (a notice template's `version`
    is its wording's number, so it counts saves in `edit_version`)."""
    return getattr(instance, "concurrency_field", VERSION_FIELD)


class Versioned(models.Model):
    """A record edited by people, saved through `save_versioned`."""

    concurrency_field = VERSION_FIELD
    version = models.PositiveIntegerField(
        default=1, editable=False, help_text="Moves on by one at each save (optimistic concurrency)."
    )

    class Meta:
        abstract = True


def check_fresh(instance, expected_version: int | None) -> None:
    """Refuse if the editor's copy is older than the record as read in this request."""
    current = getattr(instance, version_field(instance))
    if expected_version is not None and expected_version != current:
        raise StaleRecord(current_version=current)


def save_versioned(instance: Versioned, *, expected_version: int | None) -> None:
    """Save an existing record and move its version on, inside the caller's transaction.

    With `expected_version`, refuse (`StaleRecord`) unless the stored record still has it; the
    conditional UPDATE makes the check and the claim one statement, so two saves racing from the
    same copy cannot both pass.
    """
    model, field = type(instance), version_field(instance)
    if expected_version is None:
        setattr(instance, field, F(field) + 1)
        instance.save()
        instance.refresh_from_db(fields=[field])
        return
    check_fresh(instance, expected_version)
    claimed = model._base_manager.filter(pk=instance.pk, **{field: expected_version}).update(
        **{field: expected_version + 1}
    )
    if not claimed:
        current = model._base_manager.filter(pk=instance.pk).values_list(field, flat=True).first()
        raise StaleRecord(current_version=current or 0)
    setattr(instance, field, expected_version + 1)
    instance.save()


class VersionedFormMixin(forms.Form):
    """A form editing a versioned record (a ModelForm's `instance`, or one given as `instance=`):
    the version it was opened at goes with it, hidden.

    `expected_version()` is what the service is given. A form sent without it (an old page, a
    script) saves as a caller with no copy does.
    """

    version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=0)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        instance = getattr(self, "instance", None)
        if hasattr(instance, "concurrency_field") and instance.pk is not None:
            self.fields[VERSION_FIELD].initial = getattr(instance, version_field(instance))
        else:
            del self.fields[VERSION_FIELD]  # a new record, or one not versioned: nothing to hold

    def expected_version(self) -> int | None:
        return self.cleaned_data.get(VERSION_FIELD)

    def refused_as_stale(self, refusal: StaleRecord) -> None:
        """Say so above the form, keep the person's input, and carry the current version, so
        that saving again, having seen the record as it is now, is a deliberate choice."""
        self.add_error(None, str(refusal))
        if self.is_bound:
            self.data = self.data.copy()
            self.data[self.add_prefix(VERSION_FIELD)] = str(refusal.current_version)
