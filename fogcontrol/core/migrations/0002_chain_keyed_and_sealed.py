"""Issue 15, finding 4: the chains of copies of record are keyed, sealed and guarded harder.

- ``key_epoch`` on every copy-of-record table (servicing 0008, permits 0007) and on the purge log,
  with the purge entries' HMAC and the approval each purge was made under.
- ``RecordChainSeal``: each chain's head signed with the record key. The chains as they stand are
  sealed here, and every row already stored (plain SHA-256, no key) is recorded as "legacy" up to
  ``legacy_until``: an unkeyed row after that point does not verify. Sealing needs the record key
  (fogcontrol.core.record_keys): in production, set it before migrating.
- The triggers of the second generation (fogcontrol.core.record_triggers) replace the first on
  every protected table: INSERT only at the chain head (no ``INSERT OR REPLACE``), DELETE only
  under a lawful purge, the head and seal only forward.

Going back drops the second generation and installs the first again.
"""

from django.db import migrations, models

from fogcontrol.core.record_hashing import seal_text
from fogcontrol.core.record_keys import keyring
from fogcontrol.core.record_triggers import ProtectCopyOfRecord, head_unprotection_sql, protection_sql

TABLES = {
    "servicing_manifest": True,
    "servicing_manifestattachment": True,
    "permits_applicationsubmission": True,
    "servicing_purgedrecord": False,
}


def back_to_first_generation(apps, schema_editor):
    conn = schema_editor.connection
    for statement in head_unprotection_sql(conn.vendor):
        schema_editor.execute(statement, params=None)
    for table, purgeable in TABLES.items():
        for statement in protection_sql(conn.vendor, table, purgeable=purgeable, connection=conn):
            schema_editor.execute(statement, params=None)


def seal_existing_chains(apps, schema_editor):
    """Every chain as it stands: its rows are legacy (unkeyed) up to its head, signed here."""
    RecordChainHead = apps.get_model("core", "RecordChainHead")
    RecordChainSeal = apps.get_model("core", "RecordChainSeal")
    heads = list(RecordChainHead.objects.all())
    if not heads:
        return
    ring = keyring()
    for head in heads:
        seal = RecordChainSeal(
            chain=head.chain,
            legacy_until=head.last_sequence,
            sealed_sequence=head.last_sequence,
            sealed_hash=head.last_hash,
            key_epoch=ring.current_epoch,
        )
        seal.seal = ring.mac(seal.key_epoch, "seal", seal_text(seal))
        seal.save()


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0001_copy_of_record_tables"),
        ("permits", "0007_submission_key_epoch"),
        ("program", "0004_ruleset_version_adoption"),
        ("servicing", "0008_records_key_epoch"),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, back_to_first_generation),
        migrations.CreateModel(
            name="RecordChainSeal",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("chain", models.CharField(max_length=100, unique=True)),
                ("legacy_until", models.PositiveBigIntegerField(default=0)),
                ("sealed_sequence", models.PositiveBigIntegerField(default=0)),
                ("sealed_hash", models.CharField(default="0" * 64, max_length=64)),
                ("key_epoch", models.PositiveIntegerField()),
                ("seal", models.CharField(max_length=64)),
            ],
        ),
        migrations.AddField(
            model_name="purgedrecord",
            name="entry_mac",
            field=models.CharField(max_length=64, null=True),
        ),
        migrations.AddField(
            model_name="purgedrecord",
            name="key_epoch",
            field=models.PositiveIntegerField(null=True),
        ),
        migrations.AddField(
            model_name="purgedrecord",
            name="retention_approval_id",
            field=models.BigIntegerField(null=True),
        ),
        migrations.RunPython(seal_existing_chains, migrations.RunPython.noop),
        *[ProtectCopyOfRecord(table, purgeable=purgeable) for table, purgeable in TABLES.items()],
    ]
