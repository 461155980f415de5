from django.apps import AppConfig


class SpillsConfig(AppConfig):
    name = "fogcontrol.spills"
    label = "spills"
    verbose_name = "Sewer overflows and spills"

    def ready(self):
        from fogcontrol.core.sweep import register_step
        from fogcontrol.spills import navigation  # noqa: F401  (registers the menu items)
        from fogcontrol.spills.tasks import sweep_step

        # Its step of the nightly sweep (fogcontrol/core/sweep.py).
        register_step("spills", order=40, run=sweep_step)
