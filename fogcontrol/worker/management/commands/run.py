"""`fogcontrol run [ADDR:PORT]` (`make run`): the development server and the database worker together.

Both print here, each line with its name in front; Ctrl-C stops both (fogcontrol/worker/processes.py).
The worker runs queued work (imports, e-mail) and the nightly sweep at the Town's time.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from fogcontrol.worker.processes import Child, Supervisor, manage


class Command(BaseCommand):
    help = "Run the development web server and the background worker together; Ctrl-C stops both."

    def add_arguments(self, parser):
        parser.add_argument(
            "addrport", nargs="?", default="127.0.0.1:8000", help="Where to serve (default %(default)s)."
        )
        parser.add_argument(
            "--no-web",
            action="store_true",
            help="Run only the worker (its housekeeping and scheduler included).",
        )

    def handle(self, *args, addrport, no_web, **options):
        children = [] if no_web else [Child("web", manage("runserver", addrport))]
        children.append(Child("worker", manage("db_worker")))
        status = Supervisor(children, out=self.stdout).run()
        if status:
            raise CommandError("A process stopped on its own; both are stopped.", returncode=status)
