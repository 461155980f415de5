"""The one way an API view finds the record its URL names: in the user's scope, or 404.

A malformed id (``/api/v1/permits/abc/``), an id too large for a key, a record that does not
exist and a record outside the user's scope all answer the same 404, before any query can fail.
"""

from __future__ import annotations

from django.http import Http404

from fogcontrol.core.api.filters import MAX_ID

NOT_FOUND = "No such record."


def record_id(value) -> int:
    """The id named in a URL as a number from 1 to MAX_ID, else Http404."""
    text = str(value)
    if not text.isascii() or not text.isdigit():
        raise Http404(NOT_FOUND)
    number = int(text)
    if not 1 <= number <= MAX_ID:
        raise Http404(NOT_FOUND)
    return number


class ScopedObjectLookup:
    """For every API view whose URL names a record. Listed before DRF's GenericAPIView in the bases.

    ``get_object()`` validates the URL's id, then asks ``find_object(pk)``: by default the view's
    ``get_queryset()`` (already scoped by ``visible_to``), or a detail selector where the view
    overrides it. DoesNotExist is answered 404 by fogcontrol.core.api.errors.
    """

    def find_object(self, pk: int):
        return self.get_queryset().get(pk=pk)

    def get_object(self):
        lookup = self.lookup_url_kwarg or self.lookup_field
        record = self.find_object(record_id(self.kwargs[lookup]))
        self.check_object_permissions(self.request, record)
        return record
