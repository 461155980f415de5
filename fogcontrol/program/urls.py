from django.urls import path

from fogcontrol.program import views

app_name = "program"

urlpatterns = [
    path("", views.program_home, name="home"),
    path("profile/", views.profile_detail, name="profile"),
    path("profile/edit/", views.profile_edit, name="profile-edit"),
    path("holidays/", views.holiday_list, name="holidays"),
    path("holidays/add/", views.holiday_add, name="holiday-add"),
    path("holidays/install-standard/", views.holiday_install_standard, name="holiday-install"),
    path("holidays/<int:pk>/edit/", views.holiday_edit, name="holiday-edit"),
    path("holidays/<int:pk>/remove/", views.holiday_remove, name="holiday-remove"),
    path("rulesets/", views.ruleset_list, name="rulesets"),
    path("rulesets/new/", views.ruleset_create, name="ruleset-create"),
    path("rulesets/<int:pk>/", views.ruleset_detail, name="ruleset"),
    path("rulesets/<int:pk>/edit/", views.ruleset_edit, name="ruleset-edit"),
    path("rulesets/<int:pk>/delete/", views.ruleset_delete, name="ruleset-delete"),
]
