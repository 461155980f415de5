from rest_framework.routers import SimpleRouter

from fogcontrol.registry.imports.api.views import LicenceImportViewSet

router = SimpleRouter()
router.register("imports/licences", LicenceImportViewSet, basename="licence-import")

urlpatterns = router.urls
