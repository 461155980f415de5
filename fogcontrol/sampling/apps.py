from django.apps import AppConfig


class SamplingConfig(AppConfig):
    name = "fogcontrol.sampling"

    def ready(self):
        # The app's items in the menus (fogcontrol.core.navigation).
        from fogcontrol.core.sweep import register_step
        from fogcontrol.sampling import navigation  # noqa: F401
        from fogcontrol.sampling.tasks import sweep_step

        # Its step of the nightly sweep (fogcontrol/core/sweep.py).
        register_step("sampling", order=50, run=sweep_step)
