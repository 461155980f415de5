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
    """The pagers' totals of the lists that are whole tables (core/kept_totals.py), each the sum of
    a family of kept.py that counts every row of its table once: the manifests by month of service,
    the establishments', devices' and permits' totals. (The parcel list counts each parcel's FSEs,
    a GROUP BY: it is counted live whatever is registered.)"""
    from fogcontrol.core import kept_totals
    from fogcontrol.dashboard import kept
    from fogcontrol.permits.models import Permit
    from fogcontrol.registry.models import FoodServiceEstablishment, GreaseControlDevice
    from fogcontrol.servicing.models import Manifest

    kept_totals.register(Manifest, kept.figure_total(kept.MANIFESTS))
    kept_totals.register(FoodServiceEstablishment, kept.figure_total(kept.FSE_TOTAL))
    kept_totals.register(GreaseControlDevice, kept.figure_total(kept.DEVICE_TOTAL))
    kept_totals.register(Permit, kept.figure_total(kept.PERMIT_TOTAL))


def _install_kept_counts(sender, using="default", **kwargs):
    from django.db import connections

    from fogcontrol.dashboard import kept

    connection = connections[using]
    tables = connection.introspection.table_names()
    if kept.TABLE in tables and "registry_shareddevice" in tables:
        kept.install(using=using)
