"""What every app's forms share: a service's refusal shown beside the field it names."""

from __future__ import annotations

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError


def show_service_errors(form, error: ValidationError) -> None:
    """Put a service's ValidationError beside the form's fields it names (or above the form, with
    the field's name, when the form has no such field). Nothing was saved; the user fixes and resends."""
    if not hasattr(error, "error_dict"):
        form.add_error(None, error)
        return
    for name, messages in error.message_dict.items():
        if name in form.fields:
            form.add_error(name, messages)
        elif name == NON_FIELD_ERRORS:
            form.add_error(None, messages)
        else:
            form.add_error(
                None, [f"{name.replace('_', ' ').capitalize()}: {message}" for message in messages]
            )
