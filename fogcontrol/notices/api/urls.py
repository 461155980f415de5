from rest_framework.routers import SimpleRouter

from fogcontrol.notices.api import views

router = SimpleRouter()
router.register("notices/templates", views.TemplateViewSet, basename="notices-template")
router.register("notices/documents", views.DocumentViewSet, basename="notices-document")
router.register("notices/mail-run", views.MailRunViewSet, basename="notices-mail-run")
router.register("notices/print-batches", views.PrintBatchViewSet, basename="notices-print-batch")

urlpatterns = router.urls
