"""F7, issue 18: a manifest keeps the language of the certification its signer read and signed.

``Manifest.certification_language`` beside ``certification_text`` (the words shown): "en" for
every manifest stored before, whose text is the English of its version. A Spanish-preferring signer
now reads and signs the Spanish text, and the manifest keeps those words and "es".

Manifests are copies of record (fogcontrol.core.records): as in servicing 0006, the triggers are
dropped (the manifest's and its attachments', whose purge trigger reads the manifest), the column
added (SQLite rebuilds the table) and the triggers installed again, in this one transaction. The rows already stored were hashed without the column:
``Manifest.hash_fields_added_later`` names it, so they verify under the layout they were hashed
with, and their stored values are unchanged.
"""

from django.db import migrations, models

from fogcontrol.core.records import ProtectCopyOfRecord, protection_sql, unprotection_sql

TABLE = "servicing_manifest"
# The attachments' purge trigger reads the manifest's service date: on SQLite it names this table,
# which the rebuild drops and renames, so its triggers go and come back with the manifest's.
TABLES = (TABLE, "servicing_manifestattachment")


def drop_triggers(apps, schema_editor):
    for table in TABLES:
        for statement in unprotection_sql(schema_editor.connection.vendor, table):
            schema_editor.execute(statement, params=None)


def install_triggers(apps, schema_editor):
    for table in TABLES:
        for statement in protection_sql(schema_editor.connection.vendor, table):
            schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("servicing", "0010_list_order_indexes"),
    ]

    operations = [
        migrations.RunPython(drop_triggers, install_triggers),
        migrations.AddField(
            model_name="manifest",
            name="certification_language",
            field=models.CharField(default="en", max_length=8),
        ),
        *[ProtectCopyOfRecord(table) for table in TABLES],
    ]
