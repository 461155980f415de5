from django.urls import include, path
from rest_framework.routers import DefaultRouter

from fogcontrol.registry.api import views

router = DefaultRouter()
router.register("establishments", views.EstablishmentViewSet, basename="establishment")
router.register("devices", views.DeviceViewSet, basename="device")
router.register("parcels", views.ParcelViewSet, basename="parcel")
router.register("parties", views.PartyViewSet, basename="party")
router.register("haulers", views.HaulerViewSet, basename="hauler")
router.register("facilities", views.FacilityViewSet, basename="facility")

urlpatterns = [
    # The token endpoint lives with the accounts API; it is mounted here because this module is
    # already included under /api/v1/ (fogcontrol/urls.py is not ours to edit).
    path("auth/", include("fogcontrol.accounts.api.urls")),
    *router.urls,
]
