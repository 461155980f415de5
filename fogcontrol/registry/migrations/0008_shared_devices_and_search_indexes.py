"""Issue 16: the shared devices kept by triggers on the links (``SharedDevice``,
fogcontrol.registry.shared_links), and trigram indexes for the FSE search on PostgreSQL
(fogcontrol.registry.search_indexes: a no-op on SQLite, and where pg_trgm cannot be created)."""

import django.db.models.deletion
from django.db import migrations, models

from fogcontrol.registry import search_indexes, shared_links


def install_triggers(apps, schema_editor):
    for statement in shared_links.install_sql(schema_editor.connection.vendor):
        schema_editor.execute(statement)


def uninstall_triggers(apps, schema_editor):
    for statement in shared_links.uninstall_sql(schema_editor.connection.vendor):
        schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [
        ("registry", "0007_list_order_indexes"),
    ]

    operations = [
        migrations.CreateModel(
            name="SharedDevice",
            fields=[
                (
                    "device",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="+",
                        serialize=False,
                        to="registry.greasecontroldevice",
                    ),
                ),
            ],
            options={"verbose_name": "shared device"},
        ),
        migrations.RunPython(install_triggers, uninstall_triggers),
        migrations.RunPython(search_indexes.add, search_indexes.remove),
    ]
