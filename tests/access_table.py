"""Who may open the project's own routes: the home page, signing in and out, the API's root, schema
and docs, and a page that does not exist.

The home page sums up each user's part of the program; the API's root is for signed-in users
(anonymous: 401, as every API route); its schema and docs describe the routes, not any record, and
are open to anyone. Signing in is for anonymous visitors (a
signed-in user is sent home); signing out is a POST. An unknown address is a 404 for everyone.

Run by tests/test_access.py; the kit is fogcontrol/testing/access.py.
"""

from fogcontrol.testing.access import api, page

ROUTES = [
    page("home", "/", record=False),
    page("login", "/login/", record=False, ok=302, anonymous=200),
    page("logout", "/logout/", record=False, method="post", ok=302, anonymous=302),
    api("api-root", "/api/v1/", record=False),
    api("api-root", "/api/v1/.json", record=False, label="as JSON"),
    api("api-schema", "/api/v1/schema/", record=False, anonymous=200),
    api("api-docs", "/api/v1/docs/", record=False, anonymous=200),
    page(None, "/no-such-page/", record=False, ok=404, anonymous=404, label="an unknown page"),
    api(None, "/api/v1/no-such-thing/", record=False, ok=404, anonymous=404, label="an unknown API route"),
]
