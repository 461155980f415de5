"""Who may open and do what on the dashboard's routes: every route × every role.

The "today" panels are the staff home (`/`, in the project's table). The global search answers every
signed-in user, each within its own scope. The bulk review of manifest flags is Town staff's (404 for
anyone else, as the flag list); only reviewers (the FOG Manager, inspectors) may post it (403 for the
other staff, before the input is read); the bulk approval of routine renewals likewise, by the FOG
Manager only. The API's figures are staff's too.

Run by dashboard/tests/test_access.py; the kit is fogcontrol/testing/access.py.
"""

from __future__ import annotations

from fogcontrol.permits.roles import DECIDERS
from fogcontrol.servicing.permissions import REVIEWERS
from fogcontrol.testing.access import STAFF, api, page

ROUTES = [
    page("dashboard:search", "/dashboard/search/?q=Blue", record=False),
    page("dashboard:flag_queue", "/dashboard/queues/flags/", record=False, scope=STAFF),
    page(
        "dashboard:flag_queue",
        "/dashboard/queues/flags/",
        record=False,
        scope=STAFF,
        may=REVIEWERS,
        method="post",
        body={},
        label="bulk review",
    ),
    page("dashboard:renewal_queue", "/dashboard/queues/renewals/", record=False, scope=STAFF),
    page(
        "dashboard:renewal_queue",
        "/dashboard/queues/renewals/",
        record=False,
        scope=STAFF,
        may=DECIDERS,
        method="post",
        body={},
        label="bulk approve",
    ),
    api(
        "dashboard-renewals-approve",
        "/api/v1/queues/renewals/approve/",
        record=False,
        scope=STAFF,
        may=DECIDERS,
        method="post",
        body={},
    ),
    api("dashboard-today", "/api/v1/dashboard/", record=False, scope=STAFF),
    api("dashboard-search", "/api/v1/search/?q=Blue", record=False),
    api(
        "dashboard-flags-review",
        "/api/v1/queues/flags/review/",
        record=False,
        scope=STAFF,
        may=REVIEWERS,
        method="post",
        body={},
    ),
]
