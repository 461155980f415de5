"""Flags to review on the small town's devices (servicing's own test helpers file the manifests)."""

from fogcontrol.core.roles import Role
from fogcontrol.servicing.models import ManifestFlag
from fogcontrol.servicing.tests.helpers import submit
from fogcontrol.testing.factories import DeviceFactory


def open_flags(town, count: int, *, code: str = "fill_high") -> list[ManifestFlag]:
    """`count` open flags, each on its own manifest of a new device of the town's own FSE."""
    flags = []
    for _ in range(count):
        device = DeviceFactory(establishments=[town.own_fse], parcel=town.own_fse.parcel)
        manifest = submit(town.users[Role.HAULER], device)
        ManifestFlag.objects.filter(manifest=manifest).delete()  # the submission's own checks' flags
        flags.append(
            ManifestFlag.objects.create(
                manifest=manifest, code=code, provision="E4", message="Fill above 25%"
            )
        )
    return flags
