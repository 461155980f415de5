from django.apps import AppConfig


class WorkerConfig(AppConfig):
    """Listed before django_tasks_db in INSTALLED_APPS, so that its `db_worker` command wins."""

    name = "fogcontrol.worker"

    def ready(self):
        # The "Background work" page in the program settings' menu (fogcontrol.core.navigation).
        from fogcontrol.worker import navigation  # noqa: F401
