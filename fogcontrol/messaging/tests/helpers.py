import datetime as dt

from fogcontrol.program.selectors import town_today
from fogcontrol.servicing.models import DeviceServiceState


def service_due(device, days: int) -> DeviceServiceState:
    """The device's service falls due ``days`` from today (negative: overdue)."""
    due = town_today() + dt.timedelta(days=days)
    state, _ = DeviceServiceState.objects.update_or_create(
        device=device,
        defaults={"status": "due_soon" if days >= 0 else "overdue", "status_on": town_today(), "next_due": due,
                  "frequency_days": 90},
    )  # fmt: skip
    return state
