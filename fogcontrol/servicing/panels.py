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
    """E1: each active device of the establishment with its service state, one query (none when it
    has no active device). The devices are the establishment's own list, which its page has read
    (prefetched): the states are read by their device ids, not through the FSE-device links again
    (issue 16: that join was two thirds of the panel's CPU), as the columns the panel shows."""
    active = {
        device.pk: device.identifier
        for device in establishment.devices.all()
        if device.status == GreaseControlDevice.Status.ACTIVE
    }
    if not active:
        return None
    states = [
        {"device_id": device_id, "identifier": active[device_id], "status": status, "next_due": next_due}
        for device_id, status, next_due in DeviceServiceState.objects.filter(device_id__in=list(active))
        .order_by("next_due", "device__identifier")
        .values_list("device_id", "status", "next_due")
    ]
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
