"""The "Background work" page (Town staff): is a worker alive, what waits, runs and failed, and the
nightly sweeps; the FOG Manager may queue the sweep now."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from fogcontrol.core.permissions import has_role
from fogcontrol.core.roles import Role
from fogcontrol.worker import selectors, services


@login_required
def status(request):
    work = selectors.background_work_for(request.user)
    can_sweep = has_role(request.user, {Role.FOG_MANAGER})
    return render(request, "worker/status.html", {"work": work, "can_sweep": can_sweep})


@login_required
@require_POST
def sweep_now(request):
    selectors.require_staff(request.user)
    run = services.sweep_queue_now(acting_user=request.user)
    messages.success(
        request,
        f"The sweep of {run.day:%B %-d, %Y} is queued: the worker runs the steps not done yet today.",
    )
    return redirect("worker:status")
