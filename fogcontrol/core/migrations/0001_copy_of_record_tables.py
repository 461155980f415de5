"""The copy-of-record chain heads and purge log move from servicing to core, in state only.

Their tables were created by servicing 0001 and keep their names (servicing_recordchainhead,
servicing_purgedrecord): every copy-of-record trigger names servicing_purgedrecord, so no table
moves and no trigger changes. Hence the dependency on servicing 0002 (tables and triggers exist).
"""

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [("servicing", "0002_copy_of_record_triggers")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="RecordChainHead",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("chain", models.CharField(max_length=100, unique=True)),
                        ("last_sequence", models.PositiveBigIntegerField(default=0)),
                        ("last_hash", models.CharField(default="0" * 64, max_length=64)),
                    ],
                    options={"db_table": "servicing_recordchainhead"},
                ),
                migrations.CreateModel(
                    name="PurgedRecord",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("table_name", models.CharField(max_length=100)),
                        ("record_id", models.BigIntegerField()),
                        ("record_sequence", models.PositiveBigIntegerField()),
                        ("previous_hash", models.CharField(max_length=64)),
                        ("record_hash", models.CharField(max_length=64)),
                        ("record_date", models.DateField(help_text="The date the retention period counts from (F5).")),
                        ("purged_at", models.DateTimeField(default=django.utils.timezone.now)),
                        ("purged_by_label", models.CharField(max_length=150)),
                        ("reason", models.TextField()),
                    ],
                    options={
                        "db_table": "servicing_purgedrecord",
                        "constraints": [
                            models.UniqueConstraint(fields=("table_name", "record_id"), name="purged_record_unique"),
                            models.UniqueConstraint(
                                fields=("table_name", "record_sequence"), name="purged_sequence_unique"
                            ),
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
