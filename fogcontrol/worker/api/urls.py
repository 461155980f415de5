from django.urls import path

from fogcontrol.worker.api.views import QueueHealthView

urlpatterns = [path("worker/health/", QueueHealthView.as_view(), name="worker-health")]
