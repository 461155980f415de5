from django.urls import path

from fogcontrol.messaging import views, views_queue

app_name = "messaging"

urlpatterns = [
    path("outbox/", views.outbox, name="outbox"),
    path("outbox/<int:pk>/", views.message_detail, name="message"),
    path("outbox/<int:pk>/bounce/", views.message_bounce, name="message_bounce"),
    path("outbox/<int:pk>/retry/", views.message_retry, name="message_retry"),
    path("reminders/", views_queue.reminder_queue, name="reminder_queue"),
    path("invitations/", views.invitations, name="invitations"),
    path("invitations/new/", views.invitation_new, name="invitation_new"),
    path("invitations/<int:pk>/revoke/", views.invitation_revoke, name="invitation_revoke"),
    path("invitations/accept/<str:token>/", views.invitation_accept, name="invitation_accept"),
]
