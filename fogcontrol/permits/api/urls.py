from rest_framework.routers import SimpleRouter

from fogcontrol.permits.api.views import applications, fees, permits, remodel

router = SimpleRouter()
router.register("permit-applications", applications.ApplicationViewSet, basename="permit-application")
router.register("permit-renewals", permits.RenewalViewSet, basename="permit-renewal")
router.register("permit-modifications", permits.ModificationViewSet, basename="permit-modification")
router.register("permit-notices", permits.NoticeViewSet, basename="permit-notice")
router.register("permit-orders", permits.PermitOrderViewSet, basename="permit-order")
router.register("remodel-notices", remodel.RemodelNoticeViewSet, basename="remodel-notice")
router.register("fee-schedules", fees.FeeScheduleViewSet, basename="fee-schedule")
router.register("fee-charges", fees.FeeChargeViewSet, basename="fee-charge")
router.register("permits", permits.PermitViewSet, basename="permit")

urlpatterns = router.urls
