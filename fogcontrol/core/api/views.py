"""The base of every API viewset: records found through the one scoped look-up (lookup.py)."""

from rest_framework.viewsets import GenericViewSet

from fogcontrol.core.api.lookup import ScopedObjectLookup


class ScopedViewSet(ScopedObjectLookup, GenericViewSet):
    """A viewset whose ``get_queryset()`` starts from ``Model.objects.visible_to(request.user)``
    (through a selector) and whose detail routes answer 404 for a malformed, unknown or
    out-of-scope id alike."""
