from django.urls import path

from fogcontrol.feeds import views

app_name = "feeds"

urlpatterns = [
    path("", views.token_list, name="list"),
    path("new/", views.token_create, name="create"),
    path("<int:pk>/revoke/", views.token_revoke, name="revoke"),
    path("<str:token>/calendar.ics", views.calendar, name="calendar"),
]
