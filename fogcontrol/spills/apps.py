from django.apps import AppConfig


class SpillsConfig(AppConfig):
    name = "fogcontrol.spills"
    label = "spills"
    verbose_name = "Sewer overflows and spills"

    def ready(self):
        from fogcontrol.spills import navigation  # noqa: F401  (registers the menu items)
