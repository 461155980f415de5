"""Ruleset versions carry a `version` for optimistic concurrency (core/concurrency.py), added in
place on SQLite: the copy-of-record delete triggers read `program_rulesetversion` (F5's retention
years), so the table may not be rebuilt (core/migration_operations.py)."""

from django.db import migrations

from fogcontrol.core.migration_operations import add_save_counter


class Migration(migrations.Migration):
    dependencies = [("program", "0006_town_profile_nightly_sweep_at")]

    operations = [add_save_counter("program", "RulesetVersion", "program_rulesetversion")]
