"""Who may open and change the program's settings and the rules calculator: every route × every role.

Program settings (the Town profile, holidays, ruleset versions) are Town staff's: other signed-in
users are told they do not exist (404), in pages and API alike; only the FOG Manager changes them
(other staff 403, before the input is read). The rules calculator states public law: every
signed-in user, pages and API alike (docs/architecture.md, "Who may see what").

Run by program/tests/test_access.py; the kit is fogcontrol/testing/access.py.
"""

from __future__ import annotations

import datetime as dt

from fogcontrol.core.roles import Role
from fogcontrol.program.models import Holiday, RulesetVersion
from fogcontrol.program.selectors import town_today
from fogcontrol.testing.access import STAFF, api, page

MANAGER = frozenset({Role.FOG_MANAGER})


def build(town) -> None:
    """A holiday, the ruleset in force and a version still to come (only those can change)."""
    town.records["holiday"] = Holiday.objects.order_by("pk").first()
    town.records["in_force"] = RulesetVersion.objects.order_by("effective_from").first()
    town.records["future"] = RulesetVersion.objects.create(
        effective_from=town_today() + dt.timedelta(days=60),
        values={},
        label="Amendment",
        adoption_reference="Ord. No. 600",
        adopted_on=town_today(),
    )


def _settings(name, url, *, write=False, **kwargs):
    kind = page if name.startswith("program:") else api
    if write:
        kwargs.setdefault("method", "post")
        kwargs.setdefault("body", {})
        kwargs["may"] = MANAGER
    return kind(name, url, scope=STAFF, **kwargs)


P = "/program"
PAGES = [
    _settings("program:home", f"{P}/"),
    _settings("program:profile", f"{P}/profile/"),
    _settings("program:profile-edit", f"{P}/profile/edit/", may=MANAGER),
    _settings("program:profile-edit", f"{P}/profile/edit/", write=True, label="save"),
    _settings("program:holidays", f"{P}/holidays/"),
    _settings("program:holiday-add", f"{P}/holidays/add/", write=True),
    _settings("program:holiday-install", f"{P}/holidays/install-standard/", write=True),
    _settings("program:holiday-edit", lambda t: f"{P}/holidays/{t['holiday'].pk}/edit/", may=MANAGER),
    _settings(
        "program:holiday-edit", lambda t: f"{P}/holidays/{t['holiday'].pk}/edit/", write=True, label="save"
    ),
    _settings("program:holiday-remove", lambda t: f"{P}/holidays/{t['holiday'].pk}/remove/", write=True),
    _settings("program:rulesets", f"{P}/rulesets/"),
    _settings("program:ruleset-create", f"{P}/rulesets/new/", may=MANAGER),
    _settings("program:ruleset-create", f"{P}/rulesets/new/", write=True, label="save"),
    _settings("program:ruleset", lambda t: f"{P}/rulesets/{t['in_force'].pk}/"),
    _settings("program:ruleset-edit", lambda t: f"{P}/rulesets/{t['future'].pk}/edit/", may=MANAGER),
    _settings(
        "program:ruleset-edit", lambda t: f"{P}/rulesets/{t['future'].pk}/edit/", write=True, label="save"
    ),
    _settings("program:ruleset-delete", lambda t: f"{P}/rulesets/{t['future'].pk}/delete/", write=True),
]

A = "/api/v1/program"
API_ROUTES = [
    _settings("program-profile", f"{A}/profile/"),
    _settings("program-profile", f"{A}/profile/", write=True, method="patch", label="change"),
    _settings("program-holiday-list", f"{A}/holidays/"),
    _settings("program-holiday-list", f"{A}/holidays/", write=True, label="add"),
    _settings("program-holiday-install-standard", f"{A}/holidays/install-standard/", write=True),
    _settings("program-holiday-detail", lambda t: f"{A}/holidays/{t['holiday'].pk}/"),
    _settings(
        "program-holiday-detail",
        lambda t: f"{A}/holidays/{t['holiday'].pk}/",
        write=True,
        method="patch",
        label="edit",
    ),
    _settings(
        "program-holiday-detail",
        lambda t: f"{A}/holidays/{t['holiday'].pk}/",
        write=True,
        method="delete",
        label="remove",
    ),  # fmt: skip
    _settings("program-ruleset-list", f"{A}/rulesets/"),
    _settings("program-ruleset-list", f"{A}/rulesets/", write=True, label="create"),
    _settings("program-ruleset-in-force", f"{A}/rulesets/in-force/"),
    _settings("program-ruleset-detail", lambda t: f"{A}/rulesets/{t['in_force'].pk}/"),
    _settings(
        "program-ruleset-detail",
        lambda t: f"{A}/rulesets/{t['future'].pk}/",
        write=True,
        method="patch",
        label="change",
    ),  # fmt: skip
]

# The rules calculator: public law, for every signed-in user.
CALCULATOR = [
    page("calculator:home", "/rules/?provision=L2&start=2026-06-18", record=False),
    page("calculator:observation-row", "/rules/observation-row/", record=False),
    api("rules-deadline-list", "/api/v1/rules/deadlines/", record=False),
    api("rules-deadline-detail", "/api/v1/rules/deadlines/L2/?start=2026-06-18", record=False),
    api("rules-frequency", "/api/v1/rules/frequency/", record=False, method="post", body={}, ok=400),
    api("rules-penalty", "/api/v1/rules/penalty/", record=False, method="post", body={}, ok=400),
]

ROUTES = [*PAGES, *API_ROUTES, *CALCULATOR]
