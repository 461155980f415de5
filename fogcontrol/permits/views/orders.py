"""Order pages: record a suspension, revocation, emergency suspension or reinstatement order with its
process (L1-L6, M1-M3), the hearing officer's decision, and the appeal. Applying an order to the
permit is `permits.permit_status` (a button beside each order on the permit's page).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import redirect, render

from fogcontrol.core.forms import show_service_errors
from fogcontrol.core.views import found
from fogcontrol.permits import forms, selectors, services
from fogcontrol.permits.models import PermitOrder
from fogcontrol.permits.roles import DECISION_RECORDERS
from fogcontrol.permits.services.common import DECIDERS
from fogcontrol.permits.states import TransitionNotAllowed
from fogcontrol.program.selectors import ruleset_on, town_today


def _form_page(request, form, *, title, intro, submit, back, status):
    return render(request, "permits/form.html", {
        "form": form, "title": title, "intro": intro, "submit": submit, "back": back,
    }, status=status)  # fmt: skip


def _save(request, form, call, done: str, back):
    """Run a service with the form's data; 302 to the permit, or the form again with the refusal beside
    its field (400) or above it (409)."""
    try:
        call(form.cleaned_data)
    except ValidationError as error:
        show_service_errors(form, error)
        return None, 400
    except TransitionNotAllowed as error:
        form.add_error(None, str(error))
        return None, 409
    messages.success(request, done)
    return redirect("permits:permit_detail", back.pk), 302


@login_required
def order_new(request, pk):
    """Record an order against the permit with its process (the FOG Manager)."""
    permit = found(selectors.permit_detail, request.user, pk)
    if not request.user.has_role(*DECIDERS):
        raise PermissionDenied(
            "Only the FOG Manager records suspension, revocation and reinstatement orders."
        )
    suspensions = permit.orders.filter(applied_on__isnull=False).exclude(
        kind__in=["revocation", "reinstatement"]
    )
    form = forms.OrderForm(request.POST or None, prefix="order", suspensions=suspensions)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            response, status = _save(
                request, form,
                lambda data: services.permit_order_record(permit=permit, acting_user=request.user, **data),
                "Order recorded. Apply it to the permit when it may take effect.", permit,
            )  # fmt: skip
            if response is not None:
                return response
    ruleset = ruleset_on(town_today())
    intro = (
        "A permit is suspended or revoked only by an order made through the chapter's process. Suspension or "
        "revocation (L1-L6): the grounds, written notice of the facts by certified mail, and a hearing "
        f"{ruleset.revocation_hearing_min_days} to {ruleset.revocation_hearing_max_days} days after mailing; "
        "the hearing officer's decision is recorded next, and the order takes effect when final (L6). "
        "Emergency suspension (M1): the order takes effect at once; its hearing is held within "
        f"{ruleset.emergency_hearing_business_days} business days (M3). Reinstatement: name the suspension it ends."
    )
    return _form_page(request, form, title=f"Record an order — {permit.number}", intro=intro,
                      submit="Record the order", back=permit, status=status)  # fmt: skip


def _order(request, pk) -> PermitOrder:
    order = found(lambda user, key: selectors.orders_visible_to(user).get(pk=key), request.user, pk)
    if not request.user.has_role(*DECISION_RECORDERS):
        raise PermissionDenied("Only a hearing officer or the FOG Manager records decisions and appeals.")
    return order


@login_required
def order_decide(request, pk):
    """The hearing officer's written decision and order (L3, L4; M3)."""
    order = _order(request, pk)
    form = forms.DecisionForm(request.POST or None, prefix="decision", initial={
        "decision_on": town_today(), "hearing_concluded_on": order.hearing_on,
        "hearing_officer_name": request.user.get_full_name(),
    })  # fmt: skip
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            response, status = _save(
                request, form,
                lambda data: services.permit_order_decide(order=order, acting_user=request.user, **data),
                f"Decision on {order.reference} recorded.", order.permit,
            )  # fmt: skip
            if response is not None:
                return response
    ruleset = ruleset_on(town_today())
    intro = (
        f"{order.reference} ({order.get_kind_display()}), hearing {order.hearing_on:%B %-d, %Y}. "
        f"The hearing may be continued by no more than {ruleset.hearing_continuance_max_days} days in total (L3); "
        f"the written decision follows within {ruleset.hearing_decision_days} days after it ends, by certified "
        f"mail (L4). An emergency order's decision follows within {ruleset.emergency_decision_business_days} "
        "business days of its hearing and is final (M3)."
    )
    return _form_page(request, form, title=f"Decision on {order.reference}", intro=intro,
                      submit="Record the decision", back=order.permit, status=status)  # fmt: skip


@login_required
def order_appeal(request, pk):
    """L6: the decision became final, or was appealed, upheld or overturned by the Town Council."""
    order = _order(request, pk)
    form = forms.AppealForm(
        request.POST or None, prefix="appeal", initial={"appeal_status": order.appeal_status}
    )
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            response, status = _save(
                request, form,
                lambda data: services.permit_order_record_appeal(order=order, acting_user=request.user, **data),
                f"Appeal on {order.reference} recorded.", order.permit,
            )  # fmt: skip
            if response is not None:
                return response
    intro = (
        "The decision and order is final in all respects unless it is appealed to the Town Council under "
        "Chapter 2.04 (L6). Record when it became final, or that it was appealed, upheld or overturned."
    )
    return _form_page(request, form, title=f"Appeal on {order.reference}", intro=intro,
                      submit="Record", back=order.permit, status=status)  # fmt: skip
