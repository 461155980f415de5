"""What every app's pages share: scoped look-ups (404 outside scope), the staff-only gate, paging.

Links to other pages of a list keep its filters with `{% querystring page=… %}`
(`core/partials/pagination.html`)."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.core.paginator import Page, Paginator
from django.http import Http404


def found(select, *args, **kwargs):
    """A scoped selector's record, or a 404 when it is outside the user's scope.

    ``found(selectors.permit_detail, request.user, pk)``: the page never says whether a record it
    will not show exists.
    """
    try:
        return select(*args, **kwargs)
    except ObjectDoesNotExist as missing:
        raise Http404("No such record.") from missing


def staff_only(user) -> None:
    """Pages for Town staff only. Outside users are told the page does not exist, not that it is
    forbidden (a 404, as for a record outside their scope)."""
    if not user.is_program_staff:
        raise Http404("No such page.")


def filtered_rows(filterset_class, request, queryset, **kwargs):
    """A list page's FilterSet, bound to the query string, and the rows it selects.

    The FilterSet is always bound (an empty query string is a valid "no filter": every row the
    user may see). Only a filter the user got wrong selects nothing, with its message beside the
    field; an unbound FilterSet is never valid, so binding ``request.GET or None`` would show an
    empty "All …" list.
    """
    filterset = filterset_class(request.GET, queryset=queryset, **kwargs)
    rows = filterset.qs if filterset.is_valid() else queryset.none()
    return filterset, rows


def paginate(request, queryset, per_page: int) -> Page:
    """The page of ``queryset`` named by ?page= (the last page if beyond it, the first if not a number)."""
    return Paginator(queryset, per_page).get_page(request.GET.get("page"))
