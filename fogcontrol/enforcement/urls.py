"""Enforcement pages, one url module per area so each area's routes change on their own."""

from django.urls import include, path

app_name = "enforcement"

urlpatterns = [
    path("", include("fogcontrol.enforcement.urls_cases")),
    path("violations/", include("fogcontrol.enforcement.urls_violations")),
    path("hearings/", include("fogcontrol.enforcement.urls_hearings")),
    path("", include("fogcontrol.enforcement.urls_orders")),
]
