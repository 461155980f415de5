"""Who may open the map and the annual program report: every page and API route × every role.

Both are Town staff's (decided for issue #17): the FOG Manager, inspectors, the Hearing Officer, the
Billing Clerk and read-only staff see the whole program's map and figures; an FSE, a property owner
or a hauler is told the pages do not exist (404), on the page and in the API alike, as every staff
list (`core.views.staff_only`, `core.api.views.StaffOnly`). Nothing here writes.

Run by reports/tests/test_access.py; the kit is fogcontrol/testing/access.py.
"""

from __future__ import annotations

from fogcontrol.program.selectors import town_today
from fogcontrol.testing.access import STAFF, api, page


def _last_year(t) -> int:
    return town_today().year - 1


ROUTES = [
    page("reports:map", "/reports/map/", record=False, scope=STAFF),
    page("reports:map_geojson", "/reports/map.geojson", record=False, scope=STAFF),
    page("reports:annual", "/reports/annual/", record=False, scope=STAFF),
    page("reports:annual_pdf", lambda t: f"/reports/annual/{_last_year(t)}.pdf", record=False, scope=STAFF),
    page("reports:annual_xlsx", lambda t: f"/reports/annual/{_last_year(t)}.xlsx", record=False, scope=STAFF),
    api("annual-report", "/api/v1/reports/annual/", record=False, scope=STAFF),
    api("map-features", "/api/v1/map/features/", record=False, scope=STAFF),
]
