from django.apps import AppConfig


class EnforcementConfig(AppConfig):
    name = "fogcontrol.enforcement"
    label = "enforcement"
