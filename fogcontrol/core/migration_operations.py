"""Migration operations the apps share.

`add_save_counter`: a record edited by people gets its optimistic-concurrency counter
(core/concurrency.py). On SQLite, Django adds a NOT NULL column by rebuilding the table (create,
copy, drop, rename), and SQLite refuses to drop a table that a copy-of-record trigger names (the
triggers read the ruleset for F5's retention years, and the applications and templates their
copies come from). So on SQLite the column is added in place, with ALTER TABLE ADD COLUMN and a
default; elsewhere as Django adds it. The migration state is the same either way.
"""

from __future__ import annotations

from django.db import migrations, models

HELP = "Moves on by one at each save (optimistic concurrency)."


def _field(column: str) -> models.PositiveIntegerField:
    field = models.PositiveIntegerField(default=1, editable=False, help_text=HELP)
    field.set_attributes_from_name(column)
    return field


def add_save_counter(app_label: str, model_name: str, table: str, column: str = "version"):
    """The operation adding `column` (default 1) to `app_label.model_name`, stored in `table`."""

    def forwards(apps, schema_editor):
        if schema_editor.connection.vendor == "sqlite":
            schema_editor.execute(
                f'ALTER TABLE "{table}" ADD COLUMN "{column}" integer unsigned NOT NULL DEFAULT 1 '
                f'CHECK ("{column}" >= 0)'
            )
            return
        schema_editor.add_field(apps.get_model(app_label, model_name), _field(column))

    def backwards(apps, schema_editor):
        if schema_editor.connection.vendor == "sqlite":
            schema_editor.execute(f'ALTER TABLE "{table}" DROP COLUMN "{column}"')
            return
        schema_editor.remove_field(apps.get_model(app_label, model_name), _field(column))

    return migrations.SeparateDatabaseAndState(
        database_operations=[migrations.RunPython(forwards, backwards)],
        state_operations=[
            migrations.AddField(
                model_name=model_name.lower(),
                name=column,
                field=models.PositiveIntegerField(default=1, editable=False, help_text=HELP),
            )
        ],
    )
