from django.urls import path

from fogcontrol.dashboard.api import views

urlpatterns = [
    path("dashboard/", views.TodayView.as_view(), name="dashboard-today"),
    path("search/", views.SearchView.as_view(), name="dashboard-search"),
    path("queues/flags/review/", views.BulkFlagReviewView.as_view(), name="dashboard-flags-review"),
    path("queues/renewals/approve/", views.BulkRenewalView.as_view(), name="dashboard-renewals-approve"),
]
