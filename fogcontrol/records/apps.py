from django.apps import AppConfig


class RecordsConfig(AppConfig):
    name = "fogcontrol.records"

    def ready(self):
        # The app's items in the menus (fogcontrol.core.navigation).
        from fogcontrol.core.sweep import register_step
        from fogcontrol.records import navigation  # noqa: F401
        from fogcontrol.records.tasks import sweep_step

        # Its step of the nightly sweep (fogcontrol/core/sweep.py).
        register_step("records", order=30, run=sweep_step)
