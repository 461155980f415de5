"""Who may open the account page and manage an API token: every route × every role.

Every signed-in user has an account page and may issue, rotate and revoke their own API token (a
token acts with its user's role, so it widens nothing). The token endpoint of the API takes a
username and password, so anyone may call it: a wrong or missing password is a 400.

The second factor and the password pages are each signed-in user's own, whatever the role: the
code page sends a user who has already passed it on (302), setting it up shows a new secret, new
backup codes need a set-up device first (without one: back to the set-up page, 302), and the
"confirm it's you" page asks for a password or code before signing for a party. Changing one's
password needs signing in; asking for a reset link, and the pages the link leads to, do not (a
link with a bad token shows that it is invalid, 200).

Run by accounts/tests/test_access.py; the kit is fogcontrol/testing/access.py.
"""

from fogcontrol.testing.access import PASSES, api, page

TWO_FACTOR = "/account/two-factor"

ROUTES = [
    page("accounts:account", "/account/", record=False),
    page("accounts:account", "/account/", record=False, method="post", ok=405, label="post"),
    page("accounts:token-rotate", "/account/token/", record=False, method="post"),
    page("accounts:token-revoke", "/account/token/revoke/", record=False, method="post"),
    # The one language route (the header's switcher and the account page's form): Django's
    # set_language, saving a signed-in user's preference; anyone, signed in or not, back to the page.
    page(
        "set_language",
        "/i18n/setlang/",
        record=False,
        method="post",
        body={"language": "es"},
        ok=302,
        anonymous=PASSES,  # back to the page, not to the sign-in page
    ),
    page("set_language", "/i18n/setlang/", record=False, ok=405, anonymous=405, label="get"),
    page("accounts:two-factor-verify", f"{TWO_FACTOR}/", record=False, ok=302),
    page("accounts:two-factor-enrol", f"{TWO_FACTOR}/set-up/", record=False),
    page("accounts:two-factor-enrol", f"{TWO_FACTOR}/set-up/", record=False, method="post", label="confirm"),
    page(
        "accounts:two-factor-backup-codes", f"{TWO_FACTOR}/backup-codes/", record=False, method="post", ok=302
    ),
    page("accounts:reauthenticate", "/account/confirm/", record=False),
    page("accounts:reauthenticate", "/account/confirm/", record=False, method="post", label="confirm"),
    page("password_change", "/password/change/", record=False),
    page("password_change", "/password/change/", record=False, method="post", label="change"),
    page("password_change_done", "/password/change/done/", record=False),
    page("password_reset", "/password/reset/", record=False, anonymous=200),
    page("password_reset", "/password/reset/", record=False, method="post", anonymous=PASSES, label="ask"),
    page("password_reset_done", "/password/reset/sent/", record=False, anonymous=200),
    page("password_reset_confirm", "/password/reset/MQ/bad-token/", record=False, anonymous=200),
    page("password_reset_complete", "/password/reset/done/", record=False, anonymous=200),
    api("api-token", "/api/v1/auth/token/", record=False, method="post", body={}, ok=400, anonymous=400),
]
