"""Background work of the dashboard: the nightly recount of the kept counts (kept.py)."""

import datetime as dt

from fogcontrol.dashboard import kept


def sweep_step(*, on: dt.date, acting_user: str) -> dict:
    """The last step of the nightly sweep: rebuild the staff home's kept counts from the tables,
    set-based, and say how many were wrong (0 while the database's triggers keep them)."""
    return {"counts_corrected": kept.recount()}
