from django.urls import path

from fogcontrol.findings import views

app_name = "findings"

urlpatterns = [
    path("", views.finding_list, name="list"),
    path("<int:pk>/close/", views.finding_close, name="close"),
]
