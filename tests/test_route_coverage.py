"""Every route, page or API, has an entry in an access table (issue #9).

The test walks the URL resolver (nested includes, DRF routers, their format-suffix patterns) and
compares by URL name, never by resolving sample URLs: a route whose name no table names fails,
and so does a table entry naming a route that no longer exists. Routes left out are listed below
by name, each with its reason. The tables are found by convention: `fogcontrol/<app>/tests/
access_table.py` and `tests/access_table.py`, each with `ROUTES` (fogcontrol/testing/access.py).
"""

from __future__ import annotations

import importlib
import pkgutil

from django.apps import apps
from django.urls import URLPattern, URLResolver, get_resolver

import fogcontrol

# Namespaces and names no access table covers, and why.
EXCLUDED_NAMESPACES = {
    "admin": "Django's admin: back-office repairs for superusers only (tests/test_admin*.py)",
}
EXCLUDED_NAMES: dict[str, str] = {}


def walk(patterns, prefix: str = "", namespace: str = ""):
    """(view name, route pattern) of every route under `patterns`, unnamed ones as (None, pattern)."""
    for entry in patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace in EXCLUDED_NAMESPACES:
                continue
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from walk(entry.url_patterns, prefix + str(entry.pattern), inner)
        elif isinstance(entry, URLPattern):
            yield (f"{namespace}{entry.name}" if entry.name else None), prefix + str(entry.pattern)


def routes() -> dict[str, list[str]]:
    """{view name: [route patterns]} of every route not excluded; unnamed routes under their pattern."""
    found: dict[str, list[str]] = {}
    for name, pattern in walk(get_resolver().url_patterns):
        key = name or f"(unnamed) {pattern}"
        if name in EXCLUDED_NAMES:
            continue
        found.setdefault(key, []).append(pattern)
    return found


def table_modules() -> list[str]:
    names = ["tests.access_table"]
    for config in apps.get_app_configs():
        if config.name.startswith("fogcontrol."):
            module = f"{config.name}.tests.access_table"
            if importlib.util.find_spec(f"{config.name}.tests") and importlib.util.find_spec(module):
                names.append(module)
    for info in pkgutil.iter_modules(fogcontrol.__path__):  # sub-packages that are not apps
        module = f"fogcontrol.{info.name}.tests.access_table"
        if info.ispkg and module not in names:
            try:
                if importlib.util.find_spec(module):
                    names.append(module)
            except ModuleNotFoundError:
                pass
    return sorted(names)


def declared() -> dict[str, set[str]]:
    """{view name: {table modules naming it}}."""
    named: dict[str, set[str]] = {}
    for module in table_modules():
        for route in importlib.import_module(module).ROUTES:
            if route.url_name is not None:
                named.setdefault(route.url_name, set()).add(module)
    return named


def test_the_walk_finds_pages_api_routes_and_format_suffixes():
    found = routes()
    assert "permits:permit_detail" in found and "permit-detail" in found
    assert any("(?P<format>" in pattern for pattern in found["establishment-detail"])
    assert "api-root" in found and not any(
        "admin/" in pattern for patterns in found.values() for pattern in patterns
    )
    assert len(found) > 200


def test_every_app_with_routes_has_a_table():
    assert set(table_modules()) >= {
        "tests.access_table",
        "fogcontrol.accounts.tests.access_table",
        "fogcontrol.permits.tests.access_table",
        "fogcontrol.program.tests.access_table",
        "fogcontrol.registry.tests.access_table",
        "fogcontrol.servicing.tests.access_table",
    }


def test_every_route_has_an_entry_in_an_access_table():
    named = declared()
    missing = sorted(
        f"{name}  ({', '.join(patterns)})" for name, patterns in routes().items() if name not in named
    )
    assert not missing, (
        "Routes named in no access table (add them to the app's tests/access_table.py):\n"
        + "\n".join(missing)
    )


def test_every_table_entry_names_a_route_that_exists():
    known = set(routes())
    stale = sorted(
        f"{name} (in {', '.join(sorted(modules))})"
        for name, modules in declared().items()
        if name not in known
    )
    assert not stale, "Access table entries naming no route:\n" + "\n".join(stale)
