from rest_framework.routers import SimpleRouter

from fogcontrol.enforcement.api.views.cases import CaseViewSet

router = SimpleRouter()
router.register("enforcement/cases", CaseViewSet, basename="enforcement-case")

urlpatterns = router.urls
