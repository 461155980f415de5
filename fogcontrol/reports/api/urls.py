from django.urls import path

from fogcontrol.reports.api import views

urlpatterns = [
    path("reports/annual/", views.AnnualReportView.as_view(), name="annual-report"),
    path("map/features/", views.MapFeaturesView.as_view(), name="map-features"),
]
