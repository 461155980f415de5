from django.urls import path
from rest_framework.routers import SimpleRouter

from fogcontrol.inspections.api import views
from fogcontrol.inspections.api.charges import ComplianceChargeViewSet

router = SimpleRouter()
router.register("inspections", views.InspectionViewSet, basename="inspection")
router.register("compliance-charges", ComplianceChargeViewSet, basename="compliance-charge")

urlpatterns = [
    path("inspections/due/", views.InspectionsDueView.as_view(), name="inspections-due"),
    *router.urls,
]
