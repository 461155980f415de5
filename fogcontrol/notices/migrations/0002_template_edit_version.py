"""A notice template's draft counts its saves in `edit_version` (optimistic concurrency,
core/concurrency.py; its own `version` is the wording's number). Added in place on SQLite with a
default, as program 0007 and permits 0011 do, so no table is rebuilt under the copy-of-record
triggers of the documents issued from it."""

from django.db import migrations, models

TABLE = "notices_documenttemplate"
HELP = "Moves on by one at each save (optimistic concurrency)."


def _field():
    field = models.PositiveIntegerField(default=1, editable=False, help_text=HELP)
    field.set_attributes_from_name("edit_version")
    return field


def add_edit_version(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute(
            f'ALTER TABLE "{TABLE}" ADD COLUMN "edit_version" integer unsigned NOT NULL DEFAULT 1 '
            'CHECK ("edit_version" >= 0)'
        )
        return
    schema_editor.add_field(apps.get_model("notices", "DocumentTemplate"), _field())


def drop_edit_version(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute(f'ALTER TABLE "{TABLE}" DROP COLUMN "edit_version"')
        return
    schema_editor.remove_field(apps.get_model("notices", "DocumentTemplate"), _field())


class Migration(migrations.Migration):
    dependencies = [("notices", "0001_initial")]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[migrations.RunPython(add_edit_version, drop_edit_version)],
            state_operations=[
                migrations.AddField(
                    model_name="documenttemplate",
                    name="edit_version",
                    field=models.PositiveIntegerField(default=1, editable=False, help_text=HELP),
                )
            ],
        )
    ]
