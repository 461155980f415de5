from django.urls import path
from rest_framework.routers import SimpleRouter

from fogcontrol.program.api import views

router = SimpleRouter()
router.register("program/holidays", views.HolidayViewSet, basename="program-holiday")
router.register("program/rulesets", views.RulesetVersionViewSet, basename="program-ruleset")

urlpatterns = [
    path("program/profile/", views.TownProfileView.as_view(), name="program-profile"),
    *router.urls,
]
