from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "fogcontrol.accounts"
    verbose_name = "Accounts and roles"
