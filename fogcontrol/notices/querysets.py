"""Who may see and change documents and their templates (docs/architecture.md, "Who may see what").

Templates are the Town's wording: staff read them, the FOG Manager and the Hearing Officer change
drafts (``roles.TEMPLATE_EDITORS``); outside users are told they do not exist (404).

Issued documents: staff see all; an FSE user sees the documents of its own establishments once
served (a service with its date is on record): a notice is the FSE's when it is served on it, not
while it sits unsent. Property owners and haulers see none (404). "change" (record service): the
roles that issue documents.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q

from fogcontrol.core.roles import Role
from fogcontrol.core.scoping import NOTHING, VIEW, ScopedQuerySet
from fogcontrol.notices.roles import DOCUMENT_ISSUERS, TEMPLATE_EDITORS
from fogcontrol.registry.models import FoodServiceEstablishment


class DocumentTemplateQuerySet(ScopedQuerySet):
    def scope(self, user, action):
        if action != VIEW:
            return None if user.has_role(*TEMPLATE_EDITORS) else NOTHING
        return None if user.is_program_staff else NOTHING


class IssuedDocumentQuerySet(ScopedQuerySet):
    def _served_condition(self) -> Exists:
        # The service model through the reverse relation: this module does not import models.py.
        services = self.model._meta.get_field("services").related_model
        return Exists(services._base_manager.filter(document=OuterRef("pk"), served_on__isnull=False))

    def with_served(self):
        """Annotate ``served``: a service with its date is on record."""
        return self.annotate(served=self._served_condition())

    def served(self, value: bool = True):
        condition = self._served_condition()
        return self.filter(condition if value else ~condition)

    def scope(self, user, action):
        if action != VIEW:
            return None if user.has_role(*DOCUMENT_ISSUERS) else NOTHING
        if user.is_program_staff:
            return None
        if user.role == Role.FSE:
            own = FoodServiceEstablishment.objects.visible_to(user).values("pk")
            # A join to the services: visible_to filters on ids from a subquery, so no row repeats.
            return Q(establishment__in=own, services__served_on__isnull=False)
        return NOTHING


class DocumentServiceQuerySet(ScopedQuerySet):
    def scope(self, user, action):
        documents = self.model._meta.get_field("document").related_model
        return Q(document__in=documents.objects.visible_to(user, action).values("pk"))
