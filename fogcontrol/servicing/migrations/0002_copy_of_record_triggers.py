"""Manifests, their attachments and the purge log are copies of record (F1, F5, F7): database
triggers refuse UPDATE and DELETE on SQLite and PostgreSQL (fogcontrol.core.records)."""

from django.db import migrations

from fogcontrol.core.records import ProtectCopyOfRecord


class Migration(migrations.Migration):
    dependencies = [("servicing", "0001_initial")]

    operations = [
        ProtectCopyOfRecord("servicing_manifest"),
        ProtectCopyOfRecord("servicing_manifestattachment"),
        ProtectCopyOfRecord("servicing_purgedrecord", purgeable=False),
    ]
