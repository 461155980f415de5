"""The spills API."""

from rest_framework.routers import SimpleRouter

from fogcontrol.spills.api import views

router = SimpleRouter()
router.register("spills", views.SpillViewSet, basename="spill")
router.register("spill-reports", views.SpillReportViewSet, basename="spill-report")

urlpatterns = [*router.urls]
