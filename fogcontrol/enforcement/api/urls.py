"""Enforcement API (/api/v1/), one url module per area."""

from django.urls import include, path

urlpatterns = [
    path("", include("fogcontrol.enforcement.api.urls_violations")),
    path("", include("fogcontrol.enforcement.api.urls_cases")),
    path("", include("fogcontrol.enforcement.api.urls_hearings")),
    path("", include("fogcontrol.enforcement.api.urls_orders")),
]
