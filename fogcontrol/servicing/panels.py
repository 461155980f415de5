"""Servicing's panels on the registry's pages (fogcontrol.core.panels): a device's service status
on its registry page, and the service status of an establishment's devices on the establishment's,
each linking to the device's service history, so the two apps' pages lead to each other."""

from fogcontrol.core import panels
from fogcontrol.registry.models import GreaseControlDevice
from fogcontrol.servicing.models import DeviceServiceState


def device_service(user, device):
    """E1: one query. The registry page has already found the device in the user's scope."""
    return {
        "service_state": DeviceServiceState.objects.filter(device=device).first(),
        "serviced_device": device,
    }


def establishment_service(user, establishment):
    """E1: each active device of the establishment with its service state, one query."""
    states = list(
        DeviceServiceState.objects.filter(
            device__establishments=establishment, device__status=GreaseControlDevice.Status.ACTIVE
        )
        .select_related("device")
        # The columns the panel shows, not the state's and the device's every column (issue 16).
        .only("device_id", "status", "next_due", "device__identifier")
        .order_by("next_due", "device__identifier")
    )
    return {"service_states": states} if states else None


def register() -> None:
    panels.register(
        "registry.device", key="servicing.status", template="servicing/partials/panel_device.html",
        build=device_service, order=10,
    )  # fmt: skip
    panels.register(
        "registry.establishment", key="servicing.status",
        template="servicing/partials/panel_establishment.html", build=establishment_service, order=20,
    )  # fmt: skip
