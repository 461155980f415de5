from django.apps import AppConfig


class PermitsConfig(AppConfig):
    name = "fogcontrol.permits"
