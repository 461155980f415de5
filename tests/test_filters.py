"""Every list filter that takes a record id refuses an impossible one with a 400, never a 500."""

import importlib
import inspect
import pkgutil

import django_filters
import pytest

import fogcontrol
from conftest import api_as
from fogcontrol.core.api.filters import IdFilter
from fogcontrol.core.roles import Role

HUGE = "99999999999999999999999"


def _filtersets():
    for module_info in pkgutil.walk_packages(fogcontrol.__path__, "fogcontrol."):
        if not module_info.name.endswith("filters") or ".tests" in module_info.name:
            continue
        module = importlib.import_module(module_info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, django_filters.FilterSet) and cls.__module__ == module.__name__:
                yield cls


def test_no_filterset_takes_an_id_as_an_unbounded_number():
    """A NumberFilter parses to Decimal, which slips past Django's integer range guard; SQLite
    then fails to bind a huge value. Ids use IdFilter, which refuses it."""
    found = list(_filtersets())
    assert len(found) >= 8
    for filterset in found:
        for name, declared in filterset.base_filters.items():
            assert not isinstance(declared, django_filters.NumberFilter) or isinstance(declared, IdFilter), (
                f"{filterset.__name__}.{name} is a NumberFilter: use fogcontrol.core.api.filters.IdFilter"
            )


@pytest.mark.parametrize(
    ("path", "parameter"),
    [
        ("/api/v1/manifests/", "device"),
        ("/api/v1/manifests/", "hauler"),
        ("/api/v1/permits/", "establishment"),
    ],
)
def test_an_impossible_id_answers_400_naming_the_parameter(town, path, parameter):
    response = api_as(town.users[Role.FOG_MANAGER]).get(path, {parameter: HUGE})
    assert response.status_code == 400
    assert parameter in response.json()
