from django.apps import AppConfig


class ReportsConfig(AppConfig):
    name = "fogcontrol.reports"
    label = "reports"
    verbose_name = "The map and the annual program report"

    def ready(self):
        from fogcontrol.reports import navigation  # noqa: F401  (registers the menu items)
