from django.apps import AppConfig


class ServicingConfig(AppConfig):
    name = "fogcontrol.servicing"

    def ready(self):
        # The app's items in the menus (fogcontrol.core.navigation).
        from fogcontrol.servicing import navigation, panels  # noqa: F401

        # Its panels on the registry's pages (fogcontrol.core.panels).
        panels.register()
