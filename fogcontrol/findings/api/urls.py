from rest_framework.routers import SimpleRouter

from fogcontrol.findings.api import views

router = SimpleRouter()
router.register("findings", views.FindingViewSet, basename="finding")

urlpatterns = router.urls
