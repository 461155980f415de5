"""Inspection pages, under /inspections/. Their menu items are in ``inspections/navigation.py``."""

from django.urls import path

from fogcontrol.inspections import views

app_name = "inspections"

urlpatterns = [
    path("", views.inspection_list, name="list"),
    path("due/", views.due_list, name="due"),
    path("day/", views.day_list, name="day"),
    path("schedule/<int:establishment_pk>/", views.schedule, name="schedule"),
    path("<int:pk>/", views.inspection_detail, name="detail"),
    path("<int:pk>/edit/", views.inspection_edit, name="edit"),
    path("<int:pk>/complete/", views.inspection_complete, name="complete"),
    path("<int:pk>/photos/", views.photo_upload, name="photo_upload"),
    path("<int:pk>/assign/", views.assign, name="assign"),
    path("<int:pk>/cancel/", views.cancel, name="cancel"),
    path("<int:pk>/follow-up/", views.follow_up, name="follow_up"),
    path("<int:pk>/report.pdf", views.report_pdf, name="report"),
    path("photos/<int:pk>/", views.photo_download, name="photo"),
    path("charges/", views.charge_list, name="charges"),
    path("charges/new/", views.charge_new, name="charge_new"),
    path("charges/<int:pk>/cancel/", views.charge_cancel, name="charge_cancel"),
]
