"""RecordChainHead and PurgedRecord now belong to core (fogcontrol.core.models), in state only:
the tables stay where they are (see core 0001)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("servicing", "0002_copy_of_record_triggers"),
        ("core", "0001_copy_of_record_tables"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="RecordChainHead"),
                migrations.DeleteModel(name="PurgedRecord"),
            ],
            database_operations=[],
        ),
    ]
