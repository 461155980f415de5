from rest_framework.routers import SimpleRouter

from fogcontrol.enforcement.api.views.orders import (
    CaseOrderStepsViewSet,
    ComplaintViewSet,
    EmergencySuspensionViewSet,
    PenaltyOrderViewSet,
    TerminationViewSet,
)

router = SimpleRouter()
# Only detail actions (complaints, suspension-notices, terminations) beside the case routes.
router.register("enforcement/cases", CaseOrderStepsViewSet, basename="enforcement-case-steps")
router.register("enforcement/complaints", ComplaintViewSet, basename="enforcement-complaint")
router.register("enforcement/penalty-orders", PenaltyOrderViewSet, basename="enforcement-penalty-order")
router.register(
    "enforcement/emergency-suspensions", EmergencySuspensionViewSet, basename="enforcement-emergency"
)
router.register("enforcement/terminations", TerminationViewSet, basename="enforcement-termination")

urlpatterns = router.urls
