"""Training sessions, roster lines and waste-oil pickups become copies of record (C2, C4, F5; issue
11): each joins its own keyed chain, gets the triggers that refuse UPDATE and DELETE (a DELETE only
under a lawful purge of the class ``fse_records``), and ``verify_records`` walks it. The reports'
table gets the same purge rule (it had none: it could never be purged).

Rows stored before this migration are appended to their new chain in id order, received at their
``created_at``, hashed under the current record key, before the triggers are installed.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

from fogcontrol.core.records import ProtectCopyOfRecord

MODELS = ("trainingsession", "trainingattendance", "oilpickup")


def _chain_existing_rows(apps, schema_editor):
    from fogcontrol.core.models import GENESIS_HASH
    from fogcontrol.core.record_hashing import canonical_submission, record_mac, seal_text
    from fogcontrol.core.record_keys import keyring

    Head = apps.get_model("core", "RecordChainHead")
    Seal = apps.get_model("core", "RecordChainSeal")
    for name in MODELS:
        model = apps.get_model("records", name)
        rows = list(model.objects.order_by("pk"))
        if not rows:
            continue
        ring = keyring()
        table = model._meta.db_table
        head = Head.objects.create(chain=table, last_sequence=0, last_hash=GENESIS_HASH)
        for row in rows:
            row.received_at = row.created_at
            row.submitted_by_id = getattr(row, "recorded_by_id", None)
            row.submitted_by_label = (getattr(row, "recorded_by_label", "") or "before the chain")[:150]
            row.submission = canonical_submission({"stored_before_the_chain": row.pk})
            row.record_sequence = head.last_sequence + 1
            row.previous_hash = head.last_hash
            row.key_epoch = ring.current_epoch
            row.record_hash = record_mac(row, ring=ring, epoch=row.key_epoch)
            row.save()
            head.last_sequence = row.record_sequence
            head.last_hash = row.record_hash
            head.save(update_fields=["last_sequence", "last_hash"])
        seal = Seal(chain=table, legacy_until=0, sealed_sequence=0, sealed_hash=GENESIS_HASH)
        seal.key_epoch = ring.current_epoch
        seal.seal = ring.mac(seal.key_epoch, "seal", seal_text(seal))
        seal.save(force_insert=True)
        seal.sealed_sequence, seal.sealed_hash = head.last_sequence, head.last_hash
        seal.seal = ring.mac(seal.key_epoch, "seal", seal_text(seal))
        seal.save()


def _added(name: str) -> list:
    return [
        migrations.AddField(name, "received_at", models.DateTimeField(null=True, editable=False)),
        migrations.AddField(
            name,
            "submitted_by",
            models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(name, "submitted_by_label", models.CharField(default="", max_length=150)),
        migrations.AddField(name, "submission", models.TextField(default="")),
        migrations.AddField(name, "record_sequence", models.PositiveBigIntegerField(null=True, editable=False)),
        migrations.AddField(name, "previous_hash", models.CharField(default="", max_length=64, editable=False)),
        migrations.AddField(name, "record_hash", models.CharField(null=True, max_length=64, editable=False)),
        migrations.AddField(name, "key_epoch", models.PositiveIntegerField(editable=False, null=True)),
    ]


def _final(name: str) -> list:
    return [
        # In the hash, so set when the row is made rather than by save().
        migrations.AlterField(
            name, "created_at", models.DateTimeField(default=django.utils.timezone.now, editable=False)
        ),
        migrations.AlterField(
            name,
            "received_at",
            models.DateTimeField(db_index=True, editable=False, help_text="When received (UTC)."),
        ),
        migrations.AlterField(name, "submitted_by_label", models.CharField(max_length=150)),
        migrations.AlterField(
            name,
            "submission",
            models.TextField(help_text="The exact submission as received (canonical JSON)."),
        ),
        migrations.AlterField(name, "record_sequence", models.PositiveBigIntegerField(editable=False, unique=True)),
        migrations.AlterField(name, "previous_hash", models.CharField(editable=False, max_length=64)),
        migrations.AlterField(name, "record_hash", models.CharField(editable=False, max_length=64, unique=True)),
    ]


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0002_chain_keyed_and_sealed"),
        ("records", "0002_recordsubmission_key_epoch"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        *[operation for name in MODELS for operation in _added(name)],
        migrations.RunPython(_chain_existing_rows, migrations.RunPython.noop),
        *[operation for name in MODELS for operation in _final(name)],
        ProtectCopyOfRecord("records_trainingsession"),
        ProtectCopyOfRecord("records_trainingattendance"),
        ProtectCopyOfRecord("records_oilpickup"),
        ProtectCopyOfRecord("records_recordsubmission"),
    ]
