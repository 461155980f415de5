"""The rules calculator page, mounted at /rules/ (fogcontrol/urls.py)."""

from django.urls import path

from fogcontrol.program.calculator import views

app_name = "calculator"

urlpatterns = [
    path("", views.calculator, name="home"),
    path("observation-row/", views.observation_row, name="observation-row"),
]
