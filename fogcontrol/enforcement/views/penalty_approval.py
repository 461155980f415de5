"""A penalty order's page and its second approval (two-person rule, issue #15; P7, P8): one Hearing
Officer or FOG Manager proposes the order from the case, a second, different one approves it (the
order is then issued and served) or refuses it with the reason. The page shows where it stands."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from fogcontrol.core.errors import StateConflict
from fogcontrol.core.permissions import has_role, require_role
from fogcontrol.core.views import found
from fogcontrol.enforcement.forms_orders import PenaltyApproveForm, RefusalForm
from fogcontrol.enforcement.models import PenaltyOrder
from fogcontrol.enforcement.roles import HEARING_RECORDERS
from fogcontrol.enforcement.selectors import orders as selectors
from fogcontrol.enforcement.services import penalties
from fogcontrol.program.selectors import town_today

DECIDERS_ONLY = "Only the Hearing Officer or the FOG Manager approves or refuses penalty orders."


def _order(request, pk) -> PenaltyOrder:
    return found(lambda user, key: selectors.penalty_order_list(user).get(pk=key), request.user, pk)


def _page(request, order, *, approve_form=None, refuse_form=None, status=200):
    waiting = order.status == PenaltyOrder.Status.PROPOSED
    may_decide = waiting and has_role(request.user, HEARING_RECORDERS)
    context = {
        "order": order,
        "waiting": waiting,
        "may_decide": may_decide,
        "own_proposal": may_decide and order.recorded_by_id == request.user.pk,
        "approve_form": approve_form or PenaltyApproveForm(initial={"issued_on": town_today()}),
        "refuse_form": refuse_form or RefusalForm(),
    }
    return render(request, "enforcement/penalty_order_detail.html", context, status=status)


@login_required
def penalty_order_detail(request, pk):
    """The order: amount, cap, factors, and its state (proposed by whom, waiting, issued, refused)."""
    return _page(request, _order(request, pk))


def _decide(request, pk, *, approve: bool):
    order = _order(request, pk)
    require_role(request.user, HEARING_RECORDERS, DECIDERS_ONLY)
    form = (PenaltyApproveForm if approve else RefusalForm)(request.POST)
    forms = {"approve_form" if approve else "refuse_form": form}
    if not form.is_valid():
        return _page(request, order, status=400, **forms)
    try:
        penalties.penalty_order_decide(
            acting_user=request.user, order=order, approve=approve, **form.cleaned_data
        )
    except ValidationError as error:
        for field, errors in error.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
        return _page(request, order, status=400, **forms)
    except (StateConflict, PermissionDenied) as error:
        form.add_error(None, str(error))
        return _page(request, _order(request, pk), status=409, **forms)
    messages.success(
        request,
        f"Penalty order {order.reference} approved and issued." if approve
        else f"Penalty order {order.reference} refused: nothing was issued or billed.",
    )  # fmt: skip
    return redirect("enforcement:penalty_order_detail", order.pk)


@login_required
@require_POST
def penalty_order_approve(request, pk):
    return _decide(request, pk, approve=True)


@login_required
@require_POST
def penalty_order_refuse(request, pk):
    return _decide(request, pk, approve=False)
