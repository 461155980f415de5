"""The FSE's submissions join the keyed chain (issue 15, finding 4): each row records the epoch of
the key its hash was made under, and the table gets the triggers of the second generation
(insert only at the chain head, no INSERT OR REPLACE, delete only under a lawful purge)."""

from django.db import migrations, models

from fogcontrol.core.records import ProtectCopyOfRecord


class Migration(migrations.Migration):
    dependencies = [
        ("core", "0002_chain_keyed_and_sealed"),
        ("records", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="recordsubmission",
            name="key_epoch",
            field=models.PositiveIntegerField(editable=False, null=True),
        ),
        ProtectCopyOfRecord("records_recordsubmission"),
    ]
