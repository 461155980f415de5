"""Sampling pages, under /sampling/. Their menu items are in ``sampling/navigation.py``."""

from django.urls import path

from fogcontrol.sampling import views

app_name = "sampling"

urlpatterns = [
    path("", views.sample_list, name="list"),
    path("new/", views.sample_new, name="new"),
    path("<int:pk>/", views.sample_detail, name="detail"),
    path("<int:pk>/custody/", views.custody_add, name="custody"),
    path("<int:pk>/results/", views.result_add, name="result"),
    path("<int:pk>/results/upload/", views.results_upload, name="upload"),
    path("<int:pk>/charges/", views.charge_add, name="charge"),
    path("reports/<int:pk>/", views.report_download, name="report"),
    path("limits/", views.limit_list, name="limits"),
    path("facilities/", views.facility_list, name="facilities"),
    path("facilities/<int:pk>/installed/", views.facility_installed, name="facility_installed"),
]
