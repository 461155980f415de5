"""What every app's pages share: scoped look-ups (404 outside scope), the staff-only gate, paging.

Links to other pages of a list keep its filters with `{% querystring page=… %}`
(`core/components/pagination.html`).

A list page with filters: the view binds its FilterSet (`filtered_rows`), marks the search box
live (`live_filters`) and answers with `render_list`; the template includes
`core/components/filter_form.html` and puts the count, the table and the pagination in
`{% partialdef results inline %}<section id="results" aria-live="polite">…</section>{% endpartialdef %}`.
Without JavaScript the form submits and the whole page comes back; with htmx a change fetches the
`results` partial only and swaps it in (`#results`), and the URL keeps the filters.

Every list exports: the view passes `render_list(..., export=Export(name, COLUMNS, rows))` with the
rows it pages through, and the same URL with `?format=csv` or `?format=xlsx` answers the file of
every row the filters select (core/exports.py); the pagination component links to both, keeping
the filters."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist
from django.core.paginator import Page
from django.http import Http404
from django.shortcuts import render
from django.utils.cache import patch_vary_headers

from fogcontrol.core.exports import Export, export_response, requested_format
from fogcontrol.core.kept_totals import KeptTotalPaginator

# The search box of every filter form: the FilterSet field of this name.
SEARCH_FIELD = "q"


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
    # The request lets a RecordFilter offer only the records the user may see (its choices).
    filterset = filterset_class(request.GET, queryset=queryset, request=request, **kwargs)
    rows = filterset.qs if filterset.is_valid() else queryset.none()
    return filterset, rows


def paginate(request, queryset, per_page: int) -> Page:
    """The page of ``queryset`` named by ?page= (the last page if beyond it, the first if not a number).
    Its total is a kept count where the list is a whole table the user sees all of (core/kept_totals.py)."""
    paginator = KeptTotalPaginator(queryset, per_page, user=getattr(request, "user", None))
    if requested_format(request):
        # An export (`?format=csv|xlsx`) writes every row and shows no page: the page is built
        # without its count, which is then taken only if a page is rendered after all (a list
        # that declares no export). The export's queries are then the same for an empty list as
        # for a long one (the kept total of an empty table is no row, and it was counted).
        number = request.GET.get("page")
        number = int(number) if number and number.isdigit() and int(number) > 0 else 1
        bottom = (number - 1) * per_page
        return Page(queryset[bottom : bottom + per_page], number, paginator)
    return paginator.get_page(request.GET.get("page"))


def live_filters(filterset, url: str) -> None:
    """The search box fetches the results as the user types (the filter form itself, in
    `core/components/filter_form.html`, fetches them on any other change)."""
    field = filterset.form.fields.get(SEARCH_FIELD)
    if field is None:
        return
    field.widget.input_type = "search"
    field.widget.attrs.update(
        {
            "hx-get": url,
            "hx-trigger": "input changed delay:300ms, search",
            "hx-include": "closest form",
            "autocomplete": "off",
        }
    )


def render_list(request, template: str, context: dict, *, status: int = 200, export: Export | None = None):
    """A list page, or only its `results` partial for an htmx request from its filter form, or
    (`?format=csv|xlsx`, when the list declares its `export`) every row the filters select as a file.

    A history restore (the back button, after an htmx swap) needs the whole page. The answer varies
    with HX-Request, so a cache never serves the partial as the page."""
    if export is not None:
        exported = export_response(request, export)
        if exported is not None:
            return exported
        context = {**context, "exportable": True}
    if request.htmx and not request.htmx.history_restore_request:
        template = f"{template}#results"
    response = render(request, template, context, status=status)
    patch_vary_headers(response, ["HX-Request"])
    return response
