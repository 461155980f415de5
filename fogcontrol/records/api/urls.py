"""The records API. The obligations route sits under the registry's establishments path but is
served here: the registry lies below records and never imports it."""

from django.urls import path
from rest_framework.routers import SimpleRouter

from fogcontrol.records.api import bmp, views

router = SimpleRouter()
router.register("training-sessions", views.TrainingSessionViewSet, basename="training-session")
router.register("oil-pickups", views.OilPickupViewSet, basename="oil-pickup")
router.register("record-requirements", views.RequirementViewSet, basename="record-requirement")
router.register("record-submissions", views.SubmissionViewSet, basename="record-submission")

urlpatterns = [
    path(
        "establishments/<str:pk>/obligations/",
        views.ObligationsView.as_view(),
        name="establishment-obligations",
    ),
    path(
        "establishments/<str:pk>/training-sheet/",
        bmp.EstablishmentTrainingSheetView.as_view(),
        name="establishment-training-sheet",
    ),
    path("bmp-materials/", bmp.MaterialListView.as_view(), name="bmp-material-list"),
    path("bmp-materials/<str:key>/pdf/", bmp.MaterialPdfView.as_view(), name="bmp-material-pdf"),
    *router.urls,
]
