"""What the permits pages share: scoped look-ups (404 outside scope), service errors beside the field."""

from __future__ import annotations

from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.core.paginator import Paginator
from django.http import Http404

PER_PAGE = 25


def found(select, user, *ids):
    """A scoped selector's record, or a 404 when it is outside the user's scope."""
    try:
        return select(user, *ids)
    except ObjectDoesNotExist as missing:
        raise Http404("No such record.") from missing


def staff_only(user) -> None:
    # Outside users are told the page does not exist, not that it is forbidden.
    if not user.is_program_staff:
        raise Http404("No such page.")


def show_errors(form, error: ValidationError) -> None:
    """Put a service's ValidationError beside the form's fields (or above the form)."""
    if hasattr(error, "error_dict"):
        for field, messages in error.message_dict.items():
            target = field if field in form.fields else None
            for message in messages:
                form.add_error(target, message if target else f"{_label(field)}: {message}")
    else:
        for message in error.messages:
            form.add_error(None, message)


def _label(field: str) -> str:
    return field.replace("_", " ").capitalize()


def paginate(request, queryset):
    return Paginator(queryset, PER_PAGE).get_page(request.GET.get("page"))


def query_without_page(request) -> str:
    query = request.GET.copy()
    query.pop("page", None)
    return query.urlencode()
