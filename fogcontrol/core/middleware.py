"""Response headers every answer of ours carries (docs/security.md, "Headers").

Django's SecurityMiddleware sets nosniff, the referrer policy and (in production) HSTS;
XFrameOptionsMiddleware denies framing; django-csp sets the Content-Security-Policy. This adds
what Django has no setting for:

- `Permissions-Policy`, switching off the browser features no page uses;
- `Cache-Control: no-store` on every answer past WhiteNoise (pages, partials, API answers, file
  downloads, the login page): almost every one shows a record or a person, and marking them all
  is simpler and safer than deciding page by page. Static files are answered by WhiteNoise before
  this middleware runs, so they keep their long cache lifetime.
"""

from django.conf import settings
from django.utils.cache import add_never_cache_headers


class SecurityHeadersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", settings.FOGCONTROL_PERMISSIONS_POLICY)
        add_never_cache_headers(response)
        return response
