from django.urls import path

from fogcontrol.servicing import file_views, retention_views, views

app_name = "servicing"

urlpatterns = [
    path("", views.home, name="home"),
    path("manifests/", views.manifest_list, name="manifest_list"),
    path("manifests/new/", views.manifest_new, name="manifest_new"),
    path("manifests/<int:pk>/", views.manifest_detail, name="manifest_detail"),
    path(
        "manifests/<int:pk>/attachments/<int:attachment_pk>/",
        file_views.manifest_attachment,
        name="manifest_attachment",
    ),
    path("manifests/<int:pk>/correct/", views.manifest_correct, name="manifest_correct"),
    path("certification/", views.certification_page, name="certification"),
    path("imports/", views.import_list, name="import_list"),
    path("imports/template.csv", views.import_template, name="import_template"),
    path("imports/<int:pk>/", views.import_detail, name="import_detail"),
    path("imports/<int:pk>/report.csv", file_views.import_report, name="import_report"),
    path("devices/<int:pk>/", views.device_history, name="device_history"),
    path("devices/<int:pk>/frequency/", views.device_frequency, name="device_frequency"),
    path(
        "frequency-changes/<int:pk>/withdraw/",
        views.frequency_change_withdraw,
        name="frequency_change_withdraw",
    ),
    path(
        "devices/<int:pk>/frequency-request/", views.device_frequency_request, name="device_frequency_request"
    ),
    path("devices/<int:pk>/readings/", views.device_reading, name="device_reading"),
    path("devices/<int:pk>/holds/", retention_views.device_holds, name="device_holds"),
    path("holds/<int:pk>/release/", retention_views.hold_release_view, name="hold_release"),
    path("manifests/<int:pk>/purge/", retention_views.manifest_purge_view, name="manifest_purge"),
    path("retention/", retention_views.retention, name="retention"),
    path("retention/purges/<int:pk>/", retention_views.purge_report, name="purge_report"),
    path("flags/", views.flag_list, name="flag_list"),
    path("flags/<int:pk>/review/", views.flag_review, name="flag_review"),
    path("requirements/", views.requirement_list, name="requirement_list"),
    path("requirements/<int:pk>/close/", views.requirement_close, name="requirement_close"),
    path("frequency-requests/", views.request_list, name="request_list"),
    path("frequency-requests/<int:pk>/", views.request_detail, name="request_detail"),
]
