"""A notice template's draft counts its saves in `edit_version` (optimistic concurrency,
core/concurrency.py; its own `version` is the wording's number). Added in place on SQLite
(core/migration_operations.py), as program 0007."""

from django.db import migrations

from fogcontrol.core.migration_operations import add_save_counter


class Migration(migrations.Migration):
    dependencies = [("notices", "0001_initial")]

    operations = [
        add_save_counter("notices", "DocumentTemplate", "notices_documenttemplate", column="edit_version")
    ]
