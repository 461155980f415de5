from django.urls import path

from fogcontrol.records import bmp_views, file_views, views

app_name = "records"

urlpatterns = [
    path("", views.home, name="home"),
    path("establishments/<int:pk>/", views.establishment_records, name="establishment"),
    path("establishments/<int:pk>/obligations/", views.obligations, name="obligations"),
    path(
        "establishments/<int:pk>/training-sheet.pdf",
        bmp_views.establishment_training_sheet,
        name="bmp_training_sheet",
    ),
    path("establishments/<int:pk>/training/", views.training_add, name="training_add"),
    path("establishments/<int:pk>/pickups/", views.pickup_add, name="pickup_add"),
    path("establishments/<int:pk>/requirements/", views.requirement_add, name="requirement_add"),
    path("establishments/<int:pk>/submissions/", views.submission_add, name="submission_add"),
    path("training/<int:pk>/", views.session_detail, name="session"),
    path("training/<int:pk>/sheet.pdf", file_views.training_sheet, name="training_sheet"),
    path("training/<int:pk>/signed-sheet/", file_views.signed_sheet, name="signed_sheet"),
    path("signatures/<int:pk>/", file_views.signature, name="signature"),
    path("pickups/", views.pickup_list, name="pickups"),
    path("pickups/<int:pk>/receipt/", file_views.receipt, name="receipt"),
    path("submissions/<int:pk>/", views.submission_detail, name="submission"),
    path("submissions/<int:pk>/file/", file_views.submission_file, name="submission_file"),
    path("review/", views.review_queue, name="review_queue"),
    path("bmp/", bmp_views.materials, name="bmp"),
    path("bmp/<slug:key>.pdf", bmp_views.material, name="bmp_pdf"),
]
