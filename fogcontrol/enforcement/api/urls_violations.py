from rest_framework.routers import SimpleRouter

from fogcontrol.enforcement.api.views.violations import ViolationViewSet

router = SimpleRouter()
router.register("violations", ViolationViewSet, basename="violation")

urlpatterns = router.urls
