from rest_framework.routers import SimpleRouter

from fogcontrol.sampling.api import views

router = SimpleRouter()
router.register("samples", views.SampleViewSet, basename="sample")
router.register("discharge-limits", views.DischargeLimitViewSet, basename="discharge-limit")
router.register("monitoring-facilities", views.MonitoringFacilityViewSet, basename="monitoring-facility")

urlpatterns = router.urls
