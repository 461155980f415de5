from rest_framework.routers import SimpleRouter

from fogcontrol.messaging.api import views

router = SimpleRouter()
router.register("messages", views.MessageViewSet, basename="message")
router.register("invitations", views.InvitationViewSet, basename="invitation")

urlpatterns = router.urls
