"""Permit applications carry a `version` for optimistic concurrency (core/concurrency.py): two
people filling in the same draft never overwrite each other unseen.

As program 0007 does for ruleset versions: on SQLite the column is added in place (ALTER TABLE ADD
COLUMN with a default), since Django would rebuild the table and the copy-of-record triggers of the
application's submissions must not be disturbed; elsewhere as Django adds it.
"""

from django.db import migrations, models

TABLE = "permits_permitapplication"
HELP = "Moves on by one at each save (optimistic concurrency)."


def _field():
    field = models.PositiveIntegerField(default=1, editable=False, help_text=HELP)
    field.set_attributes_from_name("version")
    return field


def add_version(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute(
            f'ALTER TABLE "{TABLE}" ADD COLUMN "version" integer unsigned NOT NULL DEFAULT 1 '
            'CHECK ("version" >= 0)'
        )
        return
    schema_editor.add_field(apps.get_model("permits", "PermitApplication"), _field())


def drop_version(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute(f'ALTER TABLE "{TABLE}" DROP COLUMN "version"')
        return
    schema_editor.remove_field(apps.get_model("permits", "PermitApplication"), _field())


class Migration(migrations.Migration):
    dependencies = [("permits", "0010_fee_kinds_billing")]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(add_version, drop_version)],
            state_operations=[
                migrations.AddField(
                    model_name="permitapplication",
                    name="version",
                    field=models.PositiveIntegerField(default=1, editable=False, help_text=HELP),
                )
            ],
        )
    ]
