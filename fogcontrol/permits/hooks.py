"""Permits listens to the registry below it (connected in ``apps.py``): when an establishment's
business licence expiry changes, its permits in force follow it in the same transaction (B6)."""

from __future__ import annotations

from fogcontrol.permits.services.licence import permits_follow_licence


def on_licence_expiry_changed(sender, *, establishment, acting_user, previous_expiry, **kwargs) -> None:
    permits_follow_licence(
        establishment=establishment, acting_user=acting_user, previous_expiry=previous_expiry
    )
