"""`fogcontrol serve` (`make serve`): production: gunicorn and the database worker together.

Gunicorn serves the app (WhiteNoise serves the collected static files); the worker runs queued
work and the nightly sweep. Lines are prefixed `web` and `worker`; SIGTERM or Ctrl-C stops both,
and if either ends by itself the other is stopped and the command exits non-zero, for systemd to
restart them (README, "Running it for a Town").
"""

from __future__ import annotations

import sys

from django.core.management.base import BaseCommand, CommandError

from fogcontrol.worker.processes import Child, Supervisor, manage, web_workers


class Command(BaseCommand):
    help = "Serve with gunicorn and run the background worker together (production)."

    def add_arguments(self, parser):
        parser.add_argument(
            "--bind", default="127.0.0.1:8000", help="Address:port gunicorn listens on (default %(default)s)."
        )
        parser.add_argument(
            "--workers",
            type=int,
            default=None,
            help="Gunicorn worker processes (default: $WEB_CONCURRENCY, else 2 per CPU and one, at most 8).",
        )

    def handle(self, *args, bind, workers, **options):
        workers = workers or web_workers()
        if workers < 1:
            raise CommandError("--workers must be 1 or more.")
        gunicorn = [
            sys.executable,
            "-m",
            "gunicorn",
            "fogcontrol.wsgi:application",
            "--bind",
            bind,
            "--workers",
            str(workers),
            "--access-logfile",
            "-",
            "--graceful-timeout",
            "20",
            # No control socket in the service user's home: this command supervises gunicorn.
            "--no-control-socket",
        ]
        children = [Child("web", gunicorn), Child("worker", manage("db_worker", "--no-reload"))]
        status = Supervisor(children, out=self.stdout).run()
        if status:
            raise CommandError("A process stopped on its own; both are stopped.", returncode=status)
