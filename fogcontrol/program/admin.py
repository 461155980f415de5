"""Django admin for back-office repairs; the Town edits its settings on /program/.

The Town profile saves through ``town_profile_update`` (audited). The holiday calendar and the
ruleset versions are read-only here: they decide deadlines and every bold number, and change only
on /program/ through the services (a version needs its adopting ordinance or resolution, a future
effective date and values within their ranges).
"""

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError

from fogcontrol.program import services
from fogcontrol.program.models import Holiday, RulesetVersion, TownProfile


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class TownProfileAdminForm(forms.ModelForm):
    class Meta:
        model = TownProfile
        fields = list(services.PROFILE_FIELDS)

    def clean_time_zone(self):
        value = self.cleaned_data["time_zone"]
        try:
            services.validate_time_zone(value)
        except ValidationError as error:
            raise ValidationError(error.message_dict["time_zone"]) from error
        return value


@admin.register(TownProfile)
class TownProfileAdmin(admin.ModelAdmin):
    """One row, installed by migration: repaired here through the audited service."""

    form = TownProfileAdminForm
    list_display = ("name", "time_zone")

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        fields = {name: form.cleaned_data[name] for name in form.changed_data}
        services.town_profile_update(acting_user=request.user, **fields)


@admin.register(Holiday)
class HolidayAdmin(ReadOnlyAdmin):
    list_display = ("date", "name", "kind")
    list_filter = ("kind",)
    date_hierarchy = "date"


@admin.register(RulesetVersion)
class RulesetVersionAdmin(ReadOnlyAdmin):
    """Read only: a version in force judges decisions; new versions are made on /program/."""

    list_display = ("effective_from", "label", "adoption_reference", "adopted_on")
