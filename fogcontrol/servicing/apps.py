from django.apps import AppConfig


class ServicingConfig(AppConfig):
    name = "fogcontrol.servicing"

    def ready(self):
        # The app's items in the menus (fogcontrol.core.navigation).
        from fogcontrol.core.sweep import register_step
        from fogcontrol.servicing import navigation, panels  # noqa: F401
        from fogcontrol.servicing.tasks import sweep_step

        # Its panels on the registry's pages (fogcontrol.core.panels).
        panels.register()
        # Its step of the nightly sweep (fogcontrol/core/sweep.py).
        register_step("servicing", order=10, run=sweep_step)
