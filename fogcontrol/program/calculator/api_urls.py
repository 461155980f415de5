"""The rules API, included under /api/v1/ (fogcontrol/urls.py)."""

from django.urls import path

from fogcontrol.program.calculator.api import views

urlpatterns = [
    path("rules/deadlines/", views.DeadlineRuleListView.as_view(), name="rules-deadline-list"),
    path(
        "rules/deadlines/<str:provision>/", views.DeadlineDetailView.as_view(), name="rules-deadline-detail"
    ),
    path("rules/frequency/", views.FrequencyView.as_view(), name="rules-frequency"),
    path("rules/penalty/", views.PenaltyView.as_view(), name="rules-penalty"),
]
