"""Servicing API, included under /api/v1/ before the registry router (so devices/<pk>/compliance/
and devices/<pk>/history/ are ours)."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from fogcontrol.servicing.api import retention, views

router = SimpleRouter()
router.register("manifests", views.ManifestViewSet, basename="manifest")
router.register("manifest-imports", views.ManifestImportViewSet, basename="manifest-import")
router.register("manifest-flags", views.FlagViewSet, basename="manifest-flag")
router.register("service-status", views.ServiceStatusViewSet, basename="service-status")
router.register("service-requirements", views.RequirementViewSet, basename="service-requirement")
router.register("frequency-requests", views.FrequencyRequestViewSet, basename="frequency-request")
router.register("sludge-readings", views.ReadingViewSet, basename="sludge-reading")
router.register("retention-approvals", retention.RetentionApprovalViewSet, basename="retention-approval")
router.register("purge-reports", retention.PurgeReportViewSet, basename="purge-report")

urlpatterns = [
    path("devices/<int:pk>/compliance/", views.DeviceComplianceView.as_view(), name="device-compliance"),
    path("devices/<int:pk>/history/", views.DeviceHistoryView.as_view(), name="device-history"),
    path("devices/<int:pk>/frequency/", views.DeviceFrequencyView.as_view(), name="device-frequency"),
    path(
        "frequency-changes/<int:pk>/withdraw/",
        views.FrequencyChangeWithdrawView.as_view(),
        name="frequency-change-withdraw",
    ),
    path("devices/<int:pk>/holds/", retention.DeviceHoldsView.as_view(), name="device-holds"),
    path("litigation-holds/<int:pk>/release/", retention.HoldReleaseView.as_view(), name="hold-release"),
    path("manifests/<int:pk>/purge/", retention.ManifestPurgeView.as_view(), name="manifest-purge"),
    *router.urls,
]
