from django.apps import AppConfig


class NoticesConfig(AppConfig):
    name = "fogcontrol.notices"

    def ready(self):
        # The app's own template (a letter to the FSE) and its items in the menus.
        from fogcontrol.notices import letters, navigation  # noqa: F401
