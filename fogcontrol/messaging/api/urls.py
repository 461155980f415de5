from django.urls import path
from rest_framework.routers import SimpleRouter

from fogcontrol.messaging.api import queue, views

router = SimpleRouter()
router.register("messages", views.MessageViewSet, basename="message")
router.register("invitations", views.InvitationViewSet, basename="invitation")

urlpatterns = [
    path("queues/reminders/", queue.ReminderQueueView.as_view(), name="reminder-queue"),
    path("queues/reminders/send/", queue.ReminderSendView.as_view(), name="reminder-queue-send"),
    *router.urls,
]
