from rest_framework.routers import SimpleRouter

from fogcontrol.permits.api import views

router = SimpleRouter()
router.register("permit-applications", views.ApplicationViewSet, basename="permit-application")
router.register("permit-renewals", views.RenewalViewSet, basename="permit-renewal")
router.register("permit-modifications", views.ModificationViewSet, basename="permit-modification")
router.register("permit-notices", views.NoticeViewSet, basename="permit-notice")
router.register("remodel-notices", views.RemodelNoticeViewSet, basename="remodel-notice")
router.register("fee-schedules", views.FeeScheduleViewSet, basename="fee-schedule")
router.register("fee-charges", views.FeeChargeViewSet, basename="fee-charge")
router.register("permits", views.PermitViewSet, basename="permit")

urlpatterns = router.urls
