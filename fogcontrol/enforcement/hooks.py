"""Enforcement listens to the apps below it (connected in ``apps.py``): a manifest flag referred for
enforcement opens its violation at once, in the review's own transaction (F4, F7). The nightly sweep
picks up any referred flag this missed (one violation per flag either way: ``source_key``)."""

from __future__ import annotations

from fogcontrol.core.actors import person
from fogcontrol.enforcement.services.sources import from_referred_flag
from fogcontrol.enforcement.services.sweep import violations_open_bulk


def on_flag_referred(sender, *, flag, acting_user, **kwargs) -> None:
    violation = from_referred_flag(flag)
    if violation is None:
        return
    violation.opened_by = person(acting_user)
    violations_open_bulk(
        violations=[violation], acting_user=acting_user, note="A manifest flag was referred for enforcement."
    )
