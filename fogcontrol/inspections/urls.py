from django.urls import path

from fogcontrol.inspections import views

app_name = "inspections"

urlpatterns = [
    path("photos/<int:pk>/", views.photo_download, name="photo"),
]
