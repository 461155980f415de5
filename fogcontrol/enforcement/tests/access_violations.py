"""Enforcement access table: this area's routes (see access_table.py)."""

ROUTES: list = []


def build(town) -> None:
    pass
