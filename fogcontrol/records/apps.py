from django.apps import AppConfig


class RecordsConfig(AppConfig):
    name = "fogcontrol.records"

    def ready(self):
        # The app's items in the menus (fogcontrol.core.navigation).
        from fogcontrol.records import navigation  # noqa: F401
