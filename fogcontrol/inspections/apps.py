from django.apps import AppConfig


class InspectionsConfig(AppConfig):
    name = "fogcontrol.inspections"

    def ready(self):
        # The app's items in the menus (fogcontrol.core.navigation).
        from fogcontrol.inspections import navigation  # noqa: F401
