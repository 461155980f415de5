from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from fogcontrol.accounts.models import User


@admin.register(User)
class ProgramUserAdmin(UserAdmin):
    list_display = ("username", "email", "first_name", "last_name", "role", "is_active")
    list_filter = ("role", "is_active", "is_superuser")
    fieldsets = UserAdmin.fieldsets + (("Program", {"fields": ("role", "phone")}),)
    add_fieldsets = UserAdmin.add_fieldsets + (("Program", {"fields": ("role",)}),)
