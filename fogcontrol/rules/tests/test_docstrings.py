"""Every public rule function names the provisions it carries, so a rule can be traced to the code."""

import importlib
import inspect
import pkgutil
import re

import pytest

import fogcontrol.rules

# Every module of fogcontrol/rules/: a new one must be added here (a test below fails until it is).
MODULES = [
    "billing",
    "calendar",
    "counting",
    "counting_words",
    "deadlines",
    "devices",
    "enforcement",
    "explain",
    "fees",
    "frequency",
    "frequency_working",
    "hearings",
    "inspections",
    "holidays",
    "maintenance",
    "penalties",
    "permit_term",
    "records",
    "responsibility",
    "ruleset",
    "sampling",
    "servicing_rules",
    "sizing",
    "sizing_verdict",
    "spills",
]
PROVISION = re.compile(r"\b[A-Q]\d{1,2}\b|Counting days|CCP §12[ab]")


def _public_functions():
    for name in MODULES:
        module = importlib.import_module(f"fogcontrol.rules.{name}")
        for attr, value in vars(module).items():
            if attr.startswith("_") or not inspect.isfunction(value) or value.__module__ != module.__name__:
                continue
            yield f"{name}.{attr}", value


# Helpers that carry no provision of their own, by name with the reason. They are not skipped
# silently: each must still exist and say in its docstring what it does.
NO_PROVISION = {
    "holidays.nth_weekday": "calendar arithmetic (the nth weekday of a month) used to place holidays",
    "holidays.observed": "the federal Saturday/Sunday shift of a holiday, used by the holiday list",
    "devices.to_decimal": "number conversion (float through str to Decimal), no rule",
    "explain.explain": "builds the Explanation every rule returns; the caller names the provisions",
    "explain.fmt_date": "writes a date as a clerk does, for explanations",
    "explain.fmt_days": "writes a count of calendar or business days, for explanations",
    "explain.fmt_percent": "writes a ratio as a percentage, for explanations",
    "explain.fmt_money": "writes dollars, for explanations",
    "explain.say": "a step of an explanation that keeps how it was said, to be read in another language",
    "explain.sentence_from_record": "reads back a step an explanation stored with its template",
    "explain.joined": "says phrases one after another, each kept to be said again in another language",
}


def test_every_rules_module_is_checked():
    on_disk = {info.name for info in pkgutil.iter_modules(fogcontrol.rules.__path__) if not info.ispkg}
    assert on_disk - set(MODULES) == set(), "rules modules missing from MODULES"
    assert set(MODULES) - on_disk == set(), "MODULES names modules that no longer exist"


@pytest.mark.provision("Counting days")
@pytest.mark.parametrize(
    ("name", "function"),
    [(name, function) for name, function in _public_functions() if name not in NO_PROVISION],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_counting_days_every_rule_function_cites_its_provisions(name, function):
    assert function.__doc__ and PROVISION.search(function.__doc__), f"{name} cites no provision"


@pytest.mark.parametrize("name", sorted(NO_PROVISION))
def test_the_helpers_without_a_provision_exist_and_say_what_they_do(name):
    functions = dict(_public_functions())
    assert name in functions, f"{name} is listed in NO_PROVISION but is no public rule function: remove it"
    assert functions[name].__doc__ and functions[name].__doc__.strip(), f"{name} has no docstring"
