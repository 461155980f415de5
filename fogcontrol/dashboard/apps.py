from django.apps import AppConfig


class DashboardConfig(AppConfig):
    name = "fogcontrol.dashboard"

    def ready(self):
        # The app's items in the menus (fogcontrol.core.navigation).
        from fogcontrol.dashboard import navigation  # noqa: F401
