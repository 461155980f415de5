"""Who may open the account page and manage an API token: every route × every role.

Every signed-in user has an account page and may issue, rotate and revoke their own API token (a
token acts with its user's role, so it widens nothing). The token endpoint of the API takes a
username and password, so anyone may call it: a wrong or missing password is a 400.

Run by accounts/tests/test_access.py; the kit is fogcontrol/testing/access.py.
"""

from fogcontrol.testing.access import api, page

ROUTES = [
    page("accounts:account", "/account/", record=False),
    page("accounts:account", "/account/", record=False, method="post", ok=405, label="post"),
    page("accounts:token-rotate", "/account/token/", record=False, method="post"),
    page("accounts:token-revoke", "/account/token/revoke/", record=False, method="post"),
    api("api-token", "/api/v1/auth/token/", record=False, method="post", body={}, ok=400, anonymous=400),
]
