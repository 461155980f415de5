from django.urls import path

from fogcontrol.worker import views

app_name = "worker"

urlpatterns = [
    path("", views.status, name="status"),
    path("sweep/", views.sweep_now, name="sweep-now"),
]
