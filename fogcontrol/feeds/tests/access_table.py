"""Who may reach the calendar feeds: every page and API route × every role.

Each user has their own feeds, staff included: a feed token belongs to one user, and no one else
sees it, revokes it or learns it exists (404), staff neither (a token is a key, not a record of the
program). Every signed-in user may make a service-due feed. The feed itself needs no session: the
token in its address is the key, so every visitor, anonymous too, gets the calendar of a live token
(showing only what its owner may see, tested in test_feeds.py) and a 404 for a revoked one.

Run by feeds/tests/test_access.py; the kit is fogcontrol/testing/access.py.
"""

from __future__ import annotations

from fogcontrol.core.roles import Role
from fogcontrol.feeds.models import FeedToken
from fogcontrol.feeds.services import feed_token_create, feed_token_revoke
from fogcontrol.testing.access import ALL_ROLES, api, page

OWNER = frozenset({Role.FSE})
EVERYONE = frozenset(ALL_ROLES)


def build(town) -> None:
    """The FSE user's live service feed, and a second one it revoked."""
    fse = town.users[Role.FSE]
    token, raw = feed_token_create(user=fse, kind=FeedToken.Kind.SERVICE_DUE, label="Phone", acting_user=fse)
    old, old_raw = feed_token_create(user=fse, kind=FeedToken.Kind.SERVICE_DUE, acting_user=fse)
    feed_token_revoke(token=old, acting_user=fse)
    town.records.update(feed=token, feed_raw=raw, revoked_raw=old_raw)


def _pk(t):
    return t["feed"].pk


NEW_FEED = {"kind": FeedToken.Kind.SERVICE_DUE, "label": "Office calendar"}

ROUTES = [
    page("feeds:list", "/feeds/", record=False),
    page("feeds:create", "/feeds/new/", method="post", record=False, body=NEW_FEED),
    page("feeds:revoke", lambda t: f"/feeds/{_pk(t)}/revoke/", method="post", owners=OWNER, scope=OWNER),
    page("feeds:calendar", lambda t: f"/feeds/{t['feed_raw']}/calendar.ics", record=False, anonymous=200),
    page(
        "feeds:calendar",
        lambda t: f"/feeds/{t['revoked_raw']}/calendar.ics",
        record=False,
        ok=404,
        anonymous=404,
        label="of a revoked feed",
    ),
    page(
        "feeds:calendar",
        "/feeds/not-a-feed-token/calendar.ics",
        record=False,
        ok=404,
        anonymous=404,
        label="of no feed",
    ),
    api("feed-list", "/api/v1/feeds/", record=False),
    api("feed-list", "/api/v1/feeds/", method="post", record=False, body=NEW_FEED, label="make one"),
    api("feed-detail", lambda t: f"/api/v1/feeds/{_pk(t)}/", owners=OWNER, scope=OWNER),
    api("feed-revoke", lambda t: f"/api/v1/feeds/{_pk(t)}/revoke/", method="post", owners=OWNER, scope=OWNER),
]
