from django.apps import AppConfig


class PermitsConfig(AppConfig):
    name = "fogcontrol.permits"

    def ready(self):
        # The app's items in the menus (fogcontrol.core.navigation).
        from fogcontrol.permits import navigation  # noqa: F401
