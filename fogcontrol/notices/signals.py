"""Events the notices app sends to the apps above it (docs/architecture.md: events travel up).

``document_served``: a document's service was recorded after its issue (``document_record_service``,
the mail log of the certified or registered mail run among them), with ``document`` (the
``IssuedDocument``: its ``key`` and its ``subject``), ``service`` (the ``DocumentService``: method,
``served_on``, article number) and ``acting_user``. Sent inside the recording's transaction: a
receiver that refuses (``ValidationError``) refuses the recording, and the mail log names the letter.
Enforcement receives it to count L2's hearing window, P5's hearing limit and P8's appeal window from
the day the letter was mailed (``fogcontrol.enforcement.hooks.on_document_served``).
"""

from django.dispatch import Signal

document_served = Signal()
