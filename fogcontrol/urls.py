from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from fogcontrol import views
from fogcontrol.accounts.views import passwords
from fogcontrol.accounts.views.language import set_language
from fogcontrol.core.api.docs import SchemaView, api_docs

api_v1 = [
    path("", include("fogcontrol.program.api.urls")),
    path("", include("fogcontrol.program.calculator.api_urls")),
    path("", include("fogcontrol.registry.imports.api_urls")),
    path("", include("fogcontrol.servicing.api.urls")),
    path("", include("fogcontrol.permits.api.urls")),
    path("", include("fogcontrol.inspections.api.urls")),
    path("", include("fogcontrol.findings.api.urls")),
    path("", include("fogcontrol.records.api.urls")),
    path("", include("fogcontrol.enforcement.api.urls")),
    path("", include("fogcontrol.notices.api.urls")),
    path("", include("fogcontrol.sampling.api.urls")),
    path("", include("fogcontrol.billing.api.urls")),
    path("", include("fogcontrol.spills.api.urls")),
    path("", include("fogcontrol.dashboard.api.urls")),
    path("", include("fogcontrol.reports.api.urls")),
    path("", include("fogcontrol.feeds.api.urls")),
    path("", include("fogcontrol.registry.api.urls")),
    path("", include("fogcontrol.worker.api.urls")),
    path("", include("fogcontrol.messaging.api.urls")),
    path("schema/", SchemaView.as_view(), name="api-schema"),
    path("docs/", api_docs, name="api-docs"),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/setlang/", set_language, name="set_language"),
    path("password/change/", passwords.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(template_name="registration/password_change_done.html"),
        name="password_change_done",
    ),
    path("password/reset/", passwords.PasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name="registration/password_reset_done.html"),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        passwords.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="registration/password_reset_complete.html"
        ),
        name="password_reset_complete",
    ),
    path("account/", include("fogcontrol.accounts.urls")),
    path("registry/imports/", include("fogcontrol.registry.imports.urls")),
    path("registry/", include("fogcontrol.registry.urls")),
    path("rules/", include("fogcontrol.program.calculator.urls")),
    path("program/", include("fogcontrol.program.urls")),
    path("worker/", include("fogcontrol.worker.urls")),
    path("permits/", include("fogcontrol.permits.urls")),
    path("servicing/", include("fogcontrol.servicing.urls")),
    path("inspections/", include("fogcontrol.inspections.urls")),
    path("findings/", include("fogcontrol.findings.urls")),
    path("records/", include("fogcontrol.records.urls")),
    path("enforcement/", include("fogcontrol.enforcement.urls")),
    path("notices/", include("fogcontrol.notices.urls")),
    path("sampling/", include("fogcontrol.sampling.urls")),
    path("billing/", include("fogcontrol.billing.urls")),
    path("spills/", include("fogcontrol.spills.urls")),
    path("dashboard/", include("fogcontrol.dashboard.urls")),
    path("reports/", include("fogcontrol.reports.urls")),
    path("messaging/", include("fogcontrol.messaging.urls")),
    path("feeds/", include("fogcontrol.feeds.urls")),
    path("api/v1/", include(api_v1)),
    path("admin/", admin.site.urls),
]

# Uploads are never served from MEDIA_URL, not even under DEBUG: each file goes out through its
# app's access-checked download view (fogcontrol/core/files.py, docs/security.md).

# Under /api/ a URL that names nothing, or a failure, answers in JSON as the rest of the API does.
handler404 = "fogcontrol.core.api.errors.page_not_found"
handler500 = "fogcontrol.core.api.errors.server_error"
