"""The documents list as a spreadsheet (core/exports.py): what was issued, to whom, and its service."""

from __future__ import annotations

from fogcontrol.core.exports import Column
from fogcontrol.notices.selectors import current_service


def _service(read):
    return lambda d: None if (service := current_service(d)) is None else read(service)


DOCUMENT_COLUMNS = (
    Column("Document", lambda d: d.reference),
    Column("Title", lambda d: d.title),
    Column("Establishment", lambda d: d.establishment.business_name if d.establishment_id else ""),
    Column("Issued", lambda d: d.issued_on),
    Column("Service", lambda d: "Served" if d.served else "Not yet served"),
    Column("Served by", _service(lambda s: s.get_method_display())),
    Column("Served on", _service(lambda s: s.served_on)),
)

# The Town's wording of each document and message (selectors.template_overview: one row per key).
TEMPLATE_COLUMNS = (
    Column("Document", lambda r: r["registration"].title),
    Column("Key", lambda r: r["registration"].key),
    Column("Provisions cited", lambda r: ", ".join(r["registration"].provisions)),
    Column("Version in force", lambda r: r["in_force"].version if r["in_force"] else "Default wording"),
    Column("In force since", lambda r: r["in_force"].effective_from if r["in_force"] else None),
    Column("Draft version", lambda r: r["draft"].version if r["draft"] else None),
    Column("Draft from", lambda r: r["draft"].effective_from if r["draft"] else None),
    Column("Versions", lambda r: r["count"]),
)

# The certified and registered mail run: the letters waiting (selectors.documents_to_mail), for the
# post office's list or the clerk's spreadsheet.
MAIL_RUN_COLUMNS = (
    Column("Document", lambda d: d.reference),
    Column("Title", lambda d: d.title),
    Column("Addressee", lambda d: " / ".join(line for line in (d.addressee or "").splitlines() if line)),
    Column("Issued", lambda d: d.issued_on),
    Column("Mail", lambda d: "Registered" if d.mail_method == "registered_mail" else "Certified"),
    Column("Article number", lambda d: d.mail_article or ""),
)
