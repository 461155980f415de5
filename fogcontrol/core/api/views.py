"""The base of every API viewset: records found through the one scoped look-up (lookup.py), and the
role a step needs checked before its input is read."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from django.core.exceptions import PermissionDenied
from rest_framework.viewsets import GenericViewSet

from fogcontrol.core.api.lookup import ScopedObjectLookup
from fogcontrol.core.permissions import has_role
from fogcontrol.core.views import staff_only


class StepRoles:
    """Who may take each step at all, declared on the viewset by action name:

        step_roles = {"accept": (DECIDERS, "Only the FOG Manager accepts an application.")}

    A role outside them is refused (403) in ``initial()``, after authentication and before the
    handler reads the body, so a role that may never take the step learns that, not what its input
    lacked (400) nor the record's state (409). On a step that names one record, the record is looked
    up first: outside the user's scope the answer stays 404. The services keep their own check (and
    the finer ones: the FSE's own establishment, the record's state)."""

    step_roles: Mapping[str, tuple[Iterable[str], str]] = {}

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        rule = self.step_roles.get(getattr(self, "action", None) or "")
        if rule is None:
            return
        roles, refusal = rule
        if has_role(request.user, roles):
            return
        if getattr(self, "detail", False):
            self.get_object()  # 404 outside the scope, before the 403
        raise PermissionDenied(refusal)


class StaffOnly:
    """A resource that is Town staff's (a staff list): anyone else is told it does not exist (404),
    in the API as on its page (``core.views.staff_only``). Checked in ``initial()``, once the user
    is known, so the schema generator, which has no user, still reads the view."""

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        staff_only(request.user)


class ScopedViewSet(StepRoles, ScopedObjectLookup, GenericViewSet):
    """A viewset whose ``get_queryset()`` starts from ``Model.objects.visible_to(request.user)``
    (through a selector) and whose detail routes answer 404 for a malformed, unknown or
    out-of-scope id alike; ``step_roles`` names who may take each step (``StepRoles``)."""
