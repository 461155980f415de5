"""B5: issuing a permit is one transaction of its own, as every write is.

The decorator had slipped onto the helper above it: on PostgreSQL, issuing from a page or the API
(no transaction around the request) then failed on the application's row lock ("select_for_update
cannot be used outside of a transaction"); SQLite ignores row locks, so only journey 1 on
PostgreSQL showed it."""

from django.db.transaction import Atomic

from fogcontrol.permits import services


def _runs_in_a_transaction(function) -> bool:
    cells = getattr(function, "__closure__", None) or ()
    return any(isinstance(cell.cell_contents, Atomic) for cell in cells)


def test_b5_permit_issue_opens_its_own_transaction():
    assert _runs_in_a_transaction(services.permit_issue)
