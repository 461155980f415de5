from django.apps import AppConfig
from django.db.models.signals import post_migrate


class RegistryConfig(AppConfig):
    name = "fogcontrol.registry"

    def ready(self):
        # The app's items in the menus (fogcontrol.core.navigation).
        from fogcontrol.registry import navigation  # noqa: F401

        # The shared devices' triggers (shared_links.py) after every migrate, as the dashboard's
        # kept counts: SQLite drops a table's triggers when a migration rebuilds the table.
        post_migrate.connect(_install_shared_links, sender=self, dispatch_uid="registry.shared_links")


def _install_shared_links(sender, using="default", **kwargs):
    from django.db import connections, transaction

    from fogcontrol.registry import shared_links

    connection = connections[using]
    if shared_links.SHARED not in connection.introspection.table_names():
        return
    with transaction.atomic(using=using), connection.cursor() as cursor:
        for statement in shared_links.install_sql(connection.vendor):
            cursor.execute(statement)
