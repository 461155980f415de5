from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "fogcontrol.accounts"
    verbose_name = "Accounts and roles"

    def ready(self):
        # The app's items in the menus (fogcontrol.core.navigation).
        # Imported here, not at the top: sessions.py imports models, which the app registry
        # loads only after every AppConfig is created.
        from fogcontrol.accounts import navigation, sessions  # noqa: F401

        sessions.connect()
