from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "fogcontrol.accounts"
    verbose_name = "Accounts and roles"

    def ready(self):
        # The app's items in the menus (fogcontrol.core.navigation).
        from fogcontrol.accounts import navigation  # noqa: F401
