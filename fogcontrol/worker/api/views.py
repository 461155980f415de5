"""`GET /api/v1/worker/health/`: the background queue's health (`fogcontrol.core.queue.queue_health`),
for Town staff and monitoring; anyone else 404."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from fogcontrol.worker import selectors


class QueueHealthSerializer(serializers.Serializer):
    queued = serializers.IntegerField(help_text="Jobs waiting to run now.")
    oldest_queued_seconds = serializers.FloatField(
        allow_null=True, help_text="How long the oldest waiting job has waited; null when none waits."
    )
    running = serializers.IntegerField()
    failed_last_day = serializers.IntegerField(help_text="Jobs that failed in the last 24 hours.")
    last_heartbeat = serializers.DateTimeField(allow_null=True, help_text="The last beat of any worker.")
    worker_alive = serializers.BooleanField(help_text="A worker beat within the last few minutes.")
    healthy = serializers.BooleanField(help_text="A worker is alive, or nothing waits for one.")
    reported = serializers.BooleanField(help_text="False when the tasks run on Redis: the counts are then 0.")


class QueueHealthView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    serializer_class = QueueHealthSerializer

    @extend_schema(summary="The background queue's health", responses=QueueHealthSerializer)
    def get(self, request):
        health = selectors.queue_health_for(request.user)
        age = health.oldest_queued_age
        data = {
            "queued": health.queued,
            "oldest_queued_seconds": age.total_seconds() if age is not None else None,
            "running": health.running,
            "failed_last_day": health.failed_last_day,
            "last_heartbeat": health.last_heartbeat,
            "worker_alive": health.worker_alive,
            "healthy": health.healthy,
            "reported": health.reported,
        }
        return Response(QueueHealthSerializer(data).data)
