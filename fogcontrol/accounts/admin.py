from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin

from fogcontrol.accounts.models import User, UserSession
from fogcontrol.accounts.services import user_deactivate


@admin.register(User)
class ProgramUserAdmin(UserAdmin):
    list_display = ("username", "email", "first_name", "last_name", "role", "is_active")
    list_filter = ("role", "is_active", "is_superuser")
    fieldsets = UserAdmin.fieldsets + (("Program", {"fields": ("role", "phone")}),)
    add_fieldsets = UserAdmin.add_fieldsets + (("Program", {"fields": ("role",)}),)
    actions = ["deactivate"]

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        # Unticking "active" is a deactivation: end the user's sessions and revoke the API token too.
        if change and "is_active" in form.changed_data and not obj.is_active:
            user_deactivate(user=obj, acting_user=request.user, reason="Deactivated in the admin.")

    @admin.action(description="Deactivate the selected users (ends their sessions, revokes API tokens)")
    def deactivate(self, request, queryset):
        for user in queryset:
            user_deactivate(user=user, acting_user=request.user, reason="Deactivated in the admin.")
        messages.success(request, f"{queryset.count()} user(s) deactivated; their sessions ended.")


@admin.register(UserSession)
class UserSessionAdmin(admin.ModelAdmin):
    list_display = ("user", "signed_in_at")
    # The session key is a bearer secret: never shown, not even to an admin.
    fields = ("user", "signed_in_at")
    readonly_fields = ("user", "signed_in_at")

    def has_add_permission(self, request):
        return False
