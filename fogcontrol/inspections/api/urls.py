from django.urls import path
from rest_framework.routers import SimpleRouter

from fogcontrol.inspections.api import views

router = SimpleRouter()
router.register("inspections", views.InspectionViewSet, basename="inspection")

urlpatterns = [
    path("inspections/due/", views.InspectionsDueView.as_view(), name="inspections-due"),
    *router.urls,
]
