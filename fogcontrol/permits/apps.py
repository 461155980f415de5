from django.apps import AppConfig


class PermitsConfig(AppConfig):
    name = "fogcontrol.permits"

    def ready(self):
        # The app's items in the menus (fogcontrol.core.navigation).
        # B6: permits follow their establishment's business licence (docs/architecture.md, "How a
        # lower app tells the apps above").
        from fogcontrol.permits import (
            hooks,
            navigation,  # noqa: F401
            panels,
        )
        from fogcontrol.registry.signals import licence_expiry_changed

        licence_expiry_changed.connect(hooks.on_licence_expiry_changed, dispatch_uid="permits.licence_expiry")
        # Its panel on the registry's establishment page (fogcontrol.core.panels).
        panels.register()
        from fogcontrol.core.sweep import register_step
        from fogcontrol.permits.tasks import sweep_step

        # Its step of the nightly sweep (fogcontrol/core/sweep.py).
        register_step("permits", order=20, run=sweep_step)
