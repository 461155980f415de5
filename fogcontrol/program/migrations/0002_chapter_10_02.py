"""Installs Chapter 10.02 as adopted (Ord. No. 564) and a Town profile the Town then edits."""

import datetime as dt

from django.db import migrations

ADOPTED_EFFECTIVE = dt.date(2023, 3, 30)


def install(apps, schema_editor):
    RulesetVersion = apps.get_model("program", "RulesetVersion")
    TownProfile = apps.get_model("program", "TownProfile")
    RulesetVersion.objects.get_or_create(
        effective_from=ADOPTED_EFFECTIVE,
        defaults={
            "label": "Chapter 10.02 as adopted (Ord. No. 564, 2-28-2023)",
            "values": {},
            "notes": "The numbers of the ordinance as adopted; later versions list the Town's amendments.",
        },
    )
    if not TownProfile.objects.exists():
        TownProfile.objects.create(name="The Town")


def uninstall(apps, schema_editor):
    apps.get_model("program", "RulesetVersion").objects.filter(effective_from=ADOPTED_EFFECTIVE).delete()


class Migration(migrations.Migration):
    dependencies = [("program", "0001_initial")]
    operations = [migrations.RunPython(install, uninstall)]
