from django.apps import AppConfig


class SamplingConfig(AppConfig):
    name = "fogcontrol.sampling"

    def ready(self):
        # The app's items in the menus (fogcontrol.core.navigation).
        from fogcontrol.sampling import navigation  # noqa: F401
