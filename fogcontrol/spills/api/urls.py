"""The spills API."""

from rest_framework.routers import SimpleRouter

from fogcontrol.spills.api import views
from fogcontrol.spills.imports.api import SpillImportViewSet

router = SimpleRouter()
router.register("spills", views.SpillViewSet, basename="spill")
router.register("spill-reports", views.SpillReportViewSet, basename="spill-report")
router.register("imports/spills", SpillImportViewSet, basename="spill-import")

urlpatterns = [*router.urls]
