from django.urls import path

from fogcontrol.notices import views
from fogcontrol.notices.views import mailing

app_name = "notices"

KEY = "<slug:key>"

urlpatterns = [
    path("templates/", views.template_list, name="templates"),
    path(f"templates/{KEY}/", views.template_detail, name="template"),
    path(f"templates/{KEY}/draft/", views.template_draft, name="template_draft"),
    path("versions/<int:pk>/", views.version_detail, name="version"),
    path("versions/<int:pk>/edit/", views.version_edit, name="version_edit"),
    path("versions/<int:pk>/preview/", views.version_preview, name="version_preview"),
    path("documents/", views.document_list, name="documents"),
    path("documents/new/", views.document_new, name="document_new"),
    path("documents/<int:pk>/", views.document_detail, name="document"),
    path("documents/<int:pk>/pdf/", views.document_pdf_download, name="document_pdf"),
    path("documents/<int:pk>/service/", views.document_service, name="document_service"),
    # The certified and registered mail run (issue #17).
    path("mail-run/", mailing.mail_run, name="mail_run"),
    path("mail-run/batches/", mailing.mail_batch, name="mail_batch"),
    path("mail-run/batches/<int:pk>/", mailing.print_batch, name="print_batch"),
    path("mail-run/batches/<int:pk>/pdf/", mailing.print_batch_download, name="print_batch_pdf"),
    path("mail-run/log/", mailing.mail_log, name="mail_log"),
]
