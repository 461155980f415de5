"""Who may see what: one answer per model (docs/architecture.md, "Who may see what").

Every model that users reach has a QuerySet built on ``ScopedQuerySet`` and answers one question,
``Model.objects.visible_to(user, action="view" | "change")``: the records this user may see, or may
change. Selectors, pages, API views (lists and the object look-up), related-field querysets and
FilterSets all start from it, so pages and API cannot disagree. (NetBox does the same with
``RestrictedQuerySet.restrict(user, action)``.)

Each app writes the rule itself, in its ``querysets.py``, as ``scope(user, action)``: a ``Q`` over
the model, or ``None`` for "every record". Anonymous visitors see nothing; a job (a label such as
``"nightly-sweep"``, fogcontrol.core.actors) acts for the program and sees everything.

"change" means: this user may make some change to the record through a service (the service
still checks the particular step). A record outside "change" but inside "view" answers 403 to a
write; a record outside "view" answers 404 to everything, so its existence does not leak.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from fogcontrol.core.actors import is_job

VIEW = "view"
CHANGE = "change"
ACTIONS = (VIEW, CHANGE)

# Q that matches nothing, for a role with no access to a model.
NOTHING = Q(pk__in=[])


def is_signed_in(user) -> bool:
    return user is not None and not is_job(user) and bool(getattr(user, "is_authenticated", False))


def is_program_staff(user) -> bool:
    """Town staff (or a superuser): the role rules of the accounts app, read through the user."""
    return is_signed_in(user) and bool(getattr(user, "is_program_staff", False))


class ScopedQuerySet(models.QuerySet):
    """A QuerySet that knows who may see and change its records. Subclasses define ``scope``."""

    def scope(self, user, action: str) -> Q | None:
        """The records a signed-in ``user`` may ``action``: a Q over this model, or None for all."""
        raise NotImplementedError(f"{type(self).__name__} must say who may see its records.")

    def visible_to(self, user, action: str = VIEW):
        """This queryset narrowed to the records ``user`` may ``action`` ("view" or "change")."""
        if action not in ACTIONS:
            raise ValueError(f"Unknown action {action!r}: use one of {', '.join(ACTIONS)}.")
        if is_job(user):
            return self
        if not is_signed_in(user):
            return self.none()
        condition = self.scope(user, action)
        if condition is None:
            return self
        # Filter on ids from a subquery: the scope's joins (users, parcels, haulers) never repeat
        # rows of the outer query, and the outer query keeps its own select_related and ordering.
        return self.filter(pk__in=self.model._base_manager.filter(condition).values("pk"))


def may(user, record, action: str = VIEW) -> bool:
    """May ``user`` ``action`` this one record? For links and buttons on pages.

    Answered from the model's ``scope``, with at most one query per model, action and request for
    an outside user (its scope is small), and none for staff whose scope is everything.
    """
    if record is None or getattr(record, "pk", None) is None:
        return False
    if is_job(user):
        return True
    if not is_signed_in(user):
        return False
    model = type(record)
    # The answer is kept on the user (one request's): a list asks it for each row, and building the
    # scope costs a queryset each time. None: every record of the model.
    cache = user.__dict__.setdefault("_scoped_ids", {})
    key = (model._meta.label, action)
    if key not in cache:
        condition = model._default_manager.all().scope(user, action)
        cache[key] = (
            None
            if condition is None
            else frozenset(model._base_manager.filter(condition).values_list("pk", flat=True))
        )
    ids = cache[key]
    return ids is None or record.pk in ids
