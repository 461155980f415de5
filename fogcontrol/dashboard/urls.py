"""Dashboard pages, under /dashboard/ (the "today" panels are the staff home, /)."""

from django.urls import path

from fogcontrol.dashboard import views, views_renewals

app_name = "dashboard"

urlpatterns = [
    path("search/", views.search, name="search"),
    path("queues/flags/", views.flag_queue_page, name="flag_queue"),
    path("queues/renewals/", views_renewals.renewal_queue_page, name="renewal_queue"),
]
