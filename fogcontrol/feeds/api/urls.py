from rest_framework.routers import SimpleRouter

from fogcontrol.feeds.api import views

router = SimpleRouter()
router.register("feeds", views.FeedTokenViewSet, basename="feed")

urlpatterns = router.urls
