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
