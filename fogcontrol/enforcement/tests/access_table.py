"""Who may see and do what in enforcement: every page and API route × every role.

One module per area (``access_violations``, ``access_cases``, ``access_hearings``,
``access_orders``), each with its ``ROUTES`` and ``build(town)``; this module joins them for
tests/test_route_coverage.py and test_access.py. The builds run in this order, so a later area may
use the records an earlier one made (``town.records["case"]``, ...).
"""

from __future__ import annotations

from fogcontrol.enforcement.tests import access_cases, access_hearings, access_orders, access_violations

AREAS = (access_violations, access_cases, access_hearings, access_orders)

ROUTES = [route for area in AREAS for route in area.ROUTES]


def build(town) -> None:
    for area in AREAS:
        area.build(town)
