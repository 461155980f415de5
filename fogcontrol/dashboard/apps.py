from django.apps import AppConfig
from django.db.models.signals import post_migrate


class DashboardConfig(AppConfig):
    name = "fogcontrol.dashboard"

    def ready(self):
        # The app's items in the menus (fogcontrol.core.navigation).
        from fogcontrol.core.sweep import register_step
        from fogcontrol.dashboard import navigation  # noqa: F401
        from fogcontrol.dashboard.tasks import sweep_step

        # The kept counts (kept.py): their triggers after every migrate, a recount every night.
        post_migrate.connect(_install_kept_counts, sender=self, dispatch_uid="dashboard.kept")
        register_step("figures", order=85, run=sweep_step)
        _register_kept_totals()


def _register_kept_totals():
    """The pagers' totals of the lists that are whole tables (core/kept_totals.py): the manifests,
    every month of service summed (a few dozen rows of the count table, read through its index)."""
    from fogcontrol.core import kept_totals
    from fogcontrol.dashboard import kept
    from fogcontrol.servicing.models import Manifest

    kept_totals.register(Manifest, kept.figure_total(kept.MANIFESTS))


def _install_kept_counts(sender, using="default", **kwargs):
    from django.db import connections

    from fogcontrol.dashboard import kept

    connection = connections[using]
    tables = connection.introspection.table_names()
    if kept.TABLE in tables and "registry_shareddevice" in tables:
        kept.install(using=using)
