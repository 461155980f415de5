"""Installs the usual California municipal holidays for 2023-2035 (Counting days).

A real Town starts with a working calendar: business-day counts (J2, M3) and the CCP §12a roll of
calendar-day deadlines skip these days. The Town then edits its own list (closure days, 9/80
Fridays) on the program pages; a day already on the calendar is left as it is. Later years are
added with `holidays_install_standard` (the "Install standard holidays" button).
"""

from django.db import migrations

FIRST_YEAR = 2023
LAST_YEAR = 2035


def _standard_days():
    # Read at migration time from the rules module, which has no database access.
    from fogcontrol.rules.holidays import standard_town_holidays

    days = {}
    for year in range(FIRST_YEAR, LAST_YEAR + 1):
        days.update(standard_town_holidays(year))
    return days


def install(apps, schema_editor):
    Holiday = apps.get_model("program", "Holiday")
    days = _standard_days()
    taken = set(Holiday.objects.filter(date__in=list(days)).values_list("date", flat=True))
    Holiday.objects.bulk_create(
        [Holiday(date=day, name=name, kind="holiday") for day, name in days.items() if day not in taken]
    )


def uninstall(apps, schema_editor):
    # Only the days exactly as installed: a day the Town renamed or added is its own.
    Holiday = apps.get_model("program", "Holiday")
    for day, name in _standard_days().items():
        Holiday.objects.filter(date=day, name=name, kind="holiday").delete()


class Migration(migrations.Migration):
    dependencies = [("program", "0002_chapter_10_02")]
    operations = [migrations.RunPython(install, uninstall)]
