"""What billing's pages share: a POST that binds a form, calls one service and goes back."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect

from fogcontrol.billing.roles import STEP_ROLES
from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import require_role


def require_step(user, step: str) -> None:
    """A role that may never take the step is refused (403) before its input is read."""
    roles, refusal = STEP_ROLES[step]
    require_role(user, roles, refusal)


def act(request, *, step: str, form_class, call, done: str, back, invalid=None, aliases=None):
    """Bind ``form_class`` to the POST, call ``call(**cleaned_data)``, report, and go ``back``.
    A form that does not validate, or that the service refuses (``ValidationError``), comes back
    through ``invalid`` (the form → its page with that form, status 400): each error beside its
    field (a refusal naming no field above the form) and what was typed kept, with a message
    saying nothing was saved. The lists' one-line forms (liens, decisions) pass ``invalid`` too: the
    list again with that row's form sent back. ``aliases`` names the form field a service's field
    name stands for (``{"recorded_on": "on"}``). Without ``invalid`` the message alone says it, on
    the way ``back``. A conflict or a refusal of the person is a message on the way ``back`` (never
    a 500)."""
    require_step(request.user, step)
    form = form_class(request.POST) if form_class is not None else None
    if form is not None and not form.is_valid():
        errors = "; ".join(
            f"{form.fields[name].label or name}: {' '.join(errs)}"
            for name, errs in form.errors.items()
            if name in form.fields
        )
        messages.error(request, f"Nothing was saved. {errors or 'Check the form.'}")
        return redirect(back) if invalid is None else invalid(form)
    try:
        call(**(form.cleaned_data if form is not None else {}))
    except ValidationError as refused:
        detail = (
            "; ".join(f"{name}: {' '.join(errs)}" for name, errs in refused.message_dict.items())
            if hasattr(refused, "error_dict")
            else " ".join(refused.messages)
        )
        messages.error(request, f"Nothing was saved. {detail}")
        if form is not None and invalid is not None:
            if hasattr(refused, "error_dict"):
                for name, errors in refused.message_dict.items():
                    name = (aliases or {}).get(name, name)
                    form.add_error(name if name in form.fields else None, errors)
            else:
                form.add_error(None, refused.messages)
            return invalid(form)
    except (StateConflict, PermissionDenied) as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, done)
    return redirect(back)


def pdf_response(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
