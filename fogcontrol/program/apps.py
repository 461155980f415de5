from django.apps import AppConfig


class ProgramConfig(AppConfig):
    name = "fogcontrol.program"

    def ready(self):
        # The app's items in the menus (fogcontrol.core.navigation).
        from fogcontrol.program import navigation  # noqa: F401
