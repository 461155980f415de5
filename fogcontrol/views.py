"""The home page: the program at a glance for staff, a user's own records for everyone else."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from fogcontrol.registry.selectors import establishment_list, registry_counts


@login_required
def home(request):
    user = request.user
    if user.is_program_staff:
        return render(request, "home_staff.html", {"counts": registry_counts(user)})
    establishments = establishment_list(user)[:50]
    return render(request, "home_portal.html", {"establishments": establishments})
