"""Who may see the background work and start the nightly sweep: every route × every role.

The "Background work" page and the queue's health are Town staff's: other signed-in users are told
they do not exist (404), pages and API alike. Only the FOG Manager queues the sweep by hand (other
staff 403).

Run by worker/tests/test_access.py; the kit is fogcontrol/testing/access.py.
"""

from __future__ import annotations

from fogcontrol.core.roles import Role
from fogcontrol.testing.access import STAFF, api, page

ROUTES = [
    page("worker:status", "/worker/", record=False, scope=STAFF),
    page(
        "worker:sweep-now",
        "/worker/sweep/",
        record=False,
        scope=STAFF,
        method="post",
        may=frozenset({Role.FOG_MANAGER}),
        ok=302,
    ),
    api("worker-health", "/api/v1/worker/health/", record=False, scope=STAFF),
]
