from django.urls import path

from fogcontrol.spills import views
from fogcontrol.spills.imports import views as import_views

app_name = "spills"

urlpatterns = [
    path("", views.spill_list, name="list"),
    path("new/", views.spill_new, name="new"),
    path("<int:pk>/", views.spill_detail, name="detail"),
    path("<int:pk>/link/", views.spill_link, name="link"),
    path("<int:pk>/costs/", views.spill_cost, name="cost"),
    path("<int:pk>/photos/", views.spill_photo, name="photo_add"),
    path("photos/<int:pk>/", views.photo_download, name="photo"),
    path("reports/", views.report_list, name="reports"),
    path("reports/new/", views.report_new, name="report_new"),
    path("reports/<int:pk>/", views.report_detail, name="report_detail"),
    path("reports/<int:pk>/written/", views.report_written, name="report_written"),
    path("imports/", import_views.import_list, name="imports"),
    path("imports/<int:pk>/", import_views.import_detail, name="import_detail"),
    path("imports/<int:pk>/apply/", import_views.import_apply, name="import_apply"),
]
