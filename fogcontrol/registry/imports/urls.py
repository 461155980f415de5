from django.urls import path

from fogcontrol.registry.imports import views

app_name = "imports"

urlpatterns = [
    path("", views.import_list, name="list"),
    path("new/", views.import_upload, name="upload"),
    path("<int:pk>/", views.import_detail, name="detail"),
    path("<int:pk>/mapping/", views.import_mapping, name="mapping"),
    path("<int:pk>/status/", views.import_status, name="status"),
    path("<int:pk>/apply/", views.import_apply, name="apply"),
    path("<int:pk>/report.csv", views.import_report_csv, name="report_csv"),
]
