"""A PDF endpoint's renderer: a client may ask for `Accept: application/pdf`.

The document itself is an HttpResponse of bytes; only the refusals (404, 403, 400) pass through
this renderer, and they are JSON: they are sent as `application/json`, not labelled as a PDF
(found by schemathesis, issue 15).
"""

from rest_framework import renderers


class PDFRenderer(renderers.BaseRenderer):
    media_type = "application/pdf"
    format = "pdf"
    charset = None

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, bytes):
            return data
        response = (renderer_context or {}).get("response")
        if response is not None:
            response["Content-Type"] = "application/json"
        return renderers.JSONRenderer().render(data)
