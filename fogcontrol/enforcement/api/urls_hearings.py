from rest_framework.routers import SimpleRouter

from fogcontrol.enforcement.api.views.hearings import HearingViewSet

router = SimpleRouter()
router.register("enforcement/hearings", HearingViewSet, basename="enforcement-hearing")

urlpatterns = router.urls
