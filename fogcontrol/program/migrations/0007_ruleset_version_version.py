"""Ruleset versions carry a `version` for optimistic concurrency (core/concurrency.py).

On SQLite, Django adds a NOT NULL column by rebuilding the table (create, copy, drop, rename); the
copy-of-record delete triggers read `program_rulesetversion` (F5's retention years), and SQLite
refuses to drop a table a trigger names. So on SQLite the column is added in place, with ALTER
TABLE ADD COLUMN and a default; elsewhere as Django adds it.
"""

from django.db import migrations, models

TABLE = "program_rulesetversion"
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
    schema_editor.add_field(apps.get_model("program", "RulesetVersion"), _field())


def drop_version(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute(f'ALTER TABLE "{TABLE}" DROP COLUMN "version"')
        return
    schema_editor.remove_field(apps.get_model("program", "RulesetVersion"), _field())


class Migration(migrations.Migration):
    dependencies = [("program", "0006_town_profile_nightly_sweep_at")]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(add_version, drop_version)],
            state_operations=[
                migrations.AddField(
                    model_name="rulesetversion",
                    name="version",
                    field=models.PositiveIntegerField(default=1, editable=False, help_text=HELP),
                )
            ],
        )
    ]
