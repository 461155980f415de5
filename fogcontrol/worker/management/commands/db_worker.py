"""`fogcontrol db_worker` (`make worker`): django-tasks-db's worker, supervised.

Same options as the package's command, plus `--max-db-retries`. A database error restarts the
loop after a back-off; after too many in a row, or any other error, the process exits with status
1 for its supervisor to restart it (fogcontrol/worker/supervision.py).
"""

from __future__ import annotations

import os

from django.core.management.base import CommandError
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV, run_with_reloader
from django_tasks_db.management.commands.db_worker import Command as PackageCommand
from django_tasks_db.management.commands.db_worker import logger as package_logger

from fogcontrol.worker.supervision import SupervisedWorker, run_then_end_process


class Command(PackageCommand):
    help = "Run the database background worker; it survives database errors or exits non-zero."

    def add_arguments(self, parser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--max-db-retries",
            type=int,
            default=10,
            help="Database errors in a row after which the worker exits with status 1 (default: %(default)r)",
        )

    def handle(
        self,
        *,
        verbosity: int,
        queue_name: str,
        interval: float,
        batch: bool,
        backend_name: str,
        startup_delay: bool,
        reload: bool,
        max_tasks: int | None,
        worker_id: str,
        exclude_queues: str,
        max_db_retries: int,
        **options,
    ) -> None:
        self.configure_logging(verbosity)
        if reload and batch:
            package_logger.warning(
                "Warning: --reload and --batch cannot be specified together. Disabling autoreload."
            )
            reload = False
        queue_names = queue_name.split(",")
        excluded_queue_names = exclude_queues.split(",") if exclude_queues else []
        if excluded_queue_names and "*" not in queue_names:
            raise CommandError("--exclude-queues can only be used with --queue-name=*")
        worker = SupervisedWorker(
            queue_names=queue_names,
            interval=interval,
            batch=batch,
            backend_name=backend_name,
            startup_delay=startup_delay,
            max_tasks=max_tasks,
            worker_id=worker_id,
            excluded_queue_names=excluded_queue_names,
            max_db_retries=max_db_retries,
        )
        if reload:
            if os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":
                # Only the child process (the one that runs the loop) handles the signals.
                worker.configure_signals()
            run_with_reloader(run_then_end_process, worker)
        else:
            worker.configure_signals()
            worker.run()
