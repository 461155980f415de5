from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "fogcontrol.accounts"
    verbose_name = "Accounts and roles"

    def ready(self):
        # Imported here, not at the top: sessions.py imports models, which the app registry
        # loads only after every AppConfig is created.
        from fogcontrol.accounts import sessions

        sessions.connect()
