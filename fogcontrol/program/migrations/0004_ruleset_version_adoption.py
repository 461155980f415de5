"""Each ruleset version names the ordinance or resolution that adopted it, and its adoption date.

Chapter 10.02 as adopted is Ord. No. 564, adopted 2023-02-28. A version recorded before these
fields existed keeps an empty reference until the Town records one (a version already in force
is read-only; a future one must name its adoption before it is saved again).
"""

import datetime as dt

from django.db import migrations, models

ADOPTED_EFFECTIVE = dt.date(2023, 3, 30)


def name_the_adopting_ordinance(apps, schema_editor):
    RulesetVersion = apps.get_model("program", "RulesetVersion")
    RulesetVersion.objects.filter(effective_from=ADOPTED_EFFECTIVE, adoption_reference="").update(
        adoption_reference="Ord. No. 564", adopted_on=dt.date(2023, 2, 28)
    )


class Migration(migrations.Migration):
    dependencies = [("program", "0003_standard_holidays")]

    operations = [
        migrations.AddField(
            model_name="rulesetversion",
            name="adoption_reference",
            field=models.CharField(
                default="",
                help_text="The number of the ordinance or resolution that adopted these values, e.g. Ord. No. 571.",
                max_length=100,
                verbose_name="adopting ordinance or resolution",
            ),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="rulesetversion",
            name="adopted_on",
            field=models.DateField(
                help_text="The day the Town Council adopted it.", null=True, verbose_name="adopted on"
            ),
        ),
        migrations.RunPython(name_the_adopting_ordinance, migrations.RunPython.noop),
    ]
