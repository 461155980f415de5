"""Every route, page or API, has a row in some app's access table (fogcontrol.testing.access)."""

from fogcontrol.testing.access import NOT_TABLED, tabled_routes, untabled_routes, walk_routes


def test_every_route_is_in_an_access_table():
    missing = untabled_routes()
    assert not missing, "Routes with no row in any app's tests/access_table.py ACCESS:\n" + "\n".join(missing)


def test_the_access_tables_name_only_routes_that_exist():
    names = {name for name, _ in walk_routes()}
    unknown = sorted(set(tabled_routes()) - names)
    assert not unknown, f"Access tables name routes the resolver does not know: {unknown}"
    assert set(NOT_TABLED) <= names
