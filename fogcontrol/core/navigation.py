"""The menus every app registers into (as NetBox's `navigation/menu.py`): the main menu of the top
bar, and a section menu per app with several pages (`servicing`, `program`).

An app declares its items in its own `navigation.py`, imported by its `AppConfig.ready()`:

    navigation.register(
        group="registry", label=_("Registry"), weight=20,
        items=[MenuItem(_("Establishments"), "registry:establishment_list", roles=STAFF_ROLES)],
    )

Each item names who may see it: a set of roles (`roles`), or a predicate on the user
(`visible`); with neither, every signed-in user. A menu shows a user only the items it may open,
so a page never links to a 403 or a 404 (tests/test_accessibility.py follows every menu link per
role). Templates render a menu with `{% menu "main" %}` (`core/templatetags/navigation.py`); the
item whose page is shown gets `aria-current="page"`, and on a page under an item's URL (a record
of a list) the item gets `aria-current="true"`.

Core imports no app: items name their page by URL name, resolved when the menu is shown.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse

from fogcontrol.core.permissions import has_role

MAIN = "main"


@dataclasses.dataclass(frozen=True)
class MenuItem:
    label: str
    url_name: str
    # Who may see it: users with one of these roles, or for whom `visible(user)` is true.
    roles: frozenset[str] | None = None
    visible: Callable[[object], bool] | None = None

    def shown_to(self, user) -> bool:
        if user is None or not user.is_authenticated:
            return False
        if self.roles is not None and not has_role(user, self.roles):
            return False
        return self.visible is None or bool(self.visible(user))


@dataclasses.dataclass
class MenuGroup:
    key: str
    label: str
    weight: int
    items: list[MenuItem] = dataclasses.field(default_factory=list)


@dataclasses.dataclass(frozen=True)
class ShownItem:
    label: str
    url: str
    current: str  # "page", "true" (a page under this item) or ""


@dataclasses.dataclass(frozen=True)
class ShownGroup:
    key: str
    label: str
    items: list[ShownItem]


# menu name → group key → group
_menus: dict[str, dict[str, MenuGroup]] = {}
# Bumped by every registration that adds an item, so that a menu rendered before is not reused.
_generation = 0


def register(*, group: str, label: str, items: Iterable[MenuItem], weight: int = 50, menu: str = MAIN):
    """Add `items` to `group` of `menu` (the group is made on first use; groups sort by weight)."""
    global _generation
    groups = _menus.setdefault(menu, {})
    entry = groups.setdefault(group, MenuGroup(key=group, label=label, weight=weight))
    for item in items:
        if any(known.label == item.label and known.url_name == item.url_name for known in entry.items):
            continue  # registered twice (an app's ready() run again): the menu stays the same
        entry.items.append(item)
        _generation += 1


def generation() -> int:
    return _generation


# Which items of each group a user may open, as indexes: hashable, so that the menu rendered for
# these items and this current page can be kept and shown again (core/templatetags/navigation.py).
Shown = tuple[tuple[str, tuple[int, ...]], ...]


def shown_items(user, menu: str = MAIN) -> Shown:
    """The groups of `menu` in order, each with the indexes of the items `user` may open."""
    shown = []
    for group in sorted(_menus.get(menu, {}).values(), key=lambda g: (g.weight, g.key)):
        indexes = tuple(i for i, item in enumerate(group.items) if item.shown_to(user))
        if indexes:
            shown.append((group.key, indexes))
    return tuple(shown)


def current_url(shown: Shown, path: str, menu: str = MAIN) -> str:
    """The URL among the shown items that `path` is (the page) or lies under (a record of a list)."""
    urls = _urls_now()
    groups = _menus.get(menu, {})
    return _current_url(
        [urls(groups[key].items[i].url_name) for key, indexes in shown for i in indexes], path
    )


def menu_for(user, path: str, menu: str = MAIN, *, shown: Shown | None = None) -> list[ShownGroup]:
    """The groups of `menu` with the items `user` may open, the one for `path` marked current.

    `shown` is `shown_items(user, menu)` when the caller has it already (the `{% menu %}` tag)."""
    urls = _urls_now()
    groups = _menus.get(menu, {})
    if shown is None:
        shown = shown_items(user, menu)
    with_urls = [
        (groups[key], [(groups[key].items[i].label, urls(groups[key].items[i].url_name)) for i in indexes])
        for key, indexes in shown
    ]
    current = _current_url([url for _group, items in with_urls for _label, url in items], path)
    return [
        ShownGroup(
            key=group.key,
            label=group.label,
            items=[
                ShownItem(label, url, ("page" if url == path else "true") if url == current else "")
                for label, url in items
            ],
        )
        for group, items in with_urls
    ]


# The items' URLs, reversed once per URL configuration and script prefix rather than on every page
# (every staff page shows the menu; issue 16). The menus' URL names take no arguments.
_urls: dict[tuple[str, str], dict[str, str]] = {}


def _urls_now() -> Callable[[str], str]:
    """An item's URL under the URL configuration and script prefix of this request."""
    known = _urls.setdefault((get_urlconf() or settings.ROOT_URLCONF, get_script_prefix()), {})

    def url(url_name: str) -> str:
        if url_name not in known:
            known[url_name] = reverse(url_name)
        return known[url_name]

    return url


def known_url(url_name: str) -> str:
    """``reverse(url_name)`` of a URL name that takes no arguments, kept per URL configuration and
    script prefix as the menu's are (the staff home links twenty figures to their lists)."""
    return _urls_now()(url_name)


def _current_url(urls: list[str], path: str) -> str:
    """The URL of the page shown, else the longest one the page lies under (never the home page,
    which every path lies under)."""
    if path in urls:
        return path
    under = [url for url in urls if url != "/" and path.startswith(url)]
    return max(under, key=len, default="")


def registered(menu: str = MAIN) -> list[MenuGroup]:
    """The groups of `menu` as registered, for tests and docs."""
    return sorted(_menus.get(menu, {}).values(), key=lambda g: (g.weight, g.key))
