"""Enforcement access table, hearings: the Hearing Officer's work list is the Town staff's (others:
404). Enforcement-b adds its hearing routes here."""

from __future__ import annotations

from fogcontrol.testing.access import STAFF, page


def build(town) -> None:
    pass


ROUTES = [
    page("enforcement:worklist", "/enforcement/hearings/work-list/", record=False, scope=STAFF),
    page("enforcement:hearing_list", "/enforcement/hearings/", record=False, scope=STAFF),
]
