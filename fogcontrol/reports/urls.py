from django.urls import path

from fogcontrol.reports import views

app_name = "reports"

urlpatterns = [
    path("map/", views.map_page, name="map"),
    path("map.geojson", views.map_geojson, name="map_geojson"),
    path("annual/", views.annual, name="annual"),
    path("annual/<int:year>.pdf", views.annual_pdf, name="annual_pdf"),
    path("annual/<int:year>.xlsx", views.annual_xlsx, name="annual_xlsx"),
]
