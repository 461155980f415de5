from django.apps import AppConfig


class ServicingConfig(AppConfig):
    name = "fogcontrol.servicing"

    def ready(self):
        # The app's items in the menus (fogcontrol.core.navigation).
        from fogcontrol.servicing import navigation  # noqa: F401
