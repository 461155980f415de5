"""Django admin for back-office repairs; the Town edits its settings on /program/."""

from django.contrib import admin

from fogcontrol.program.models import Holiday, RulesetVersion, TownProfile


@admin.register(TownProfile)
class TownProfileAdmin(admin.ModelAdmin):
    list_display = ("name", "time_zone")


@admin.register(Holiday)
class HolidayAdmin(admin.ModelAdmin):
    list_display = ("date", "name", "kind")
    list_filter = ("kind",)
    date_hierarchy = "date"


@admin.register(RulesetVersion)
class RulesetVersionAdmin(admin.ModelAdmin):
    """Read only: a version in force judges decisions; new versions are made on /program/."""

    list_display = ("effective_from", "label")

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
