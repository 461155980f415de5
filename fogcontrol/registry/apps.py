from django.apps import AppConfig


class RegistryConfig(AppConfig):
    name = "fogcontrol.registry"

    def ready(self):
        # The app's items in the menus (fogcontrol.core.navigation).
        from fogcontrol.registry import navigation  # noqa: F401
