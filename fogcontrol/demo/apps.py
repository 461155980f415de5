from django.apps import AppConfig


class DemoConfig(AppConfig):
    """The demo town (`fogcontrol seed_demo`). It sits above every app it fills, so no app imports it."""

    name = "fogcontrol.demo"
    label = "demo"
    verbose_name = "Demo town"
