"""The OpenAPI schema and its Swagger UI page.

In production both need a signed-in user (docs/security.md): the schema names every record and
field, which an outsider has no need to read. In development they stay open to anyone who can
reach `make run`, for people writing a client.

The page is drf-spectacular's split Swagger UI: its start-up script is fetched from the same URL
(`?script`) instead of written inline, so it runs under our Content-Security-Policy without
`unsafe-inline`; its only allowance is `data:` images, for the icons Swagger UI's stylesheet embeds.
"""

from csp.decorators import csp_update
from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.permissions import BasePermission


def _open_to(user) -> bool:
    return not settings.FOGCONTROL_PRODUCTION or bool(user and user.is_authenticated)


class SchemaAccess(BasePermission):
    """Anyone in development; a signed-in user (session or token) in production."""

    def has_permission(self, request, view) -> bool:
        return _open_to(request.user)


class SchemaView(SpectacularAPIView):
    permission_classes = [SchemaAccess]


class _DocsView(SpectacularSwaggerSplitView):
    permission_classes = [SchemaAccess]
    # drf-spectacular's page with its inline <style> moved to our static files.
    template_name = "core/api_docs.html"


_docs = csp_update({"img-src": ["data:"]})(_DocsView.as_view(url_name="api-schema"))


def api_docs(request, *args, **kwargs):
    """The Swagger UI page: in production, a person not signed in is sent to sign in first."""
    if not _open_to(request.user):
        return redirect_to_login(request.get_full_path())
    return _docs(request, *args, **kwargs)
