"""Permit applications carry a `version` for optimistic concurrency (core/concurrency.py): two
people filling in the same draft never overwrite each other unseen. Added in place on SQLite
(core/migration_operations.py), as program 0007."""

from django.db import migrations

from fogcontrol.core.migration_operations import add_save_counter


class Migration(migrations.Migration):
    dependencies = [("permits", "0010_fee_kinds_billing")]

    operations = [add_save_counter("permits", "PermitApplication", "permits_permitapplication")]
