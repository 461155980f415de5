"""Queueing background work from a service, once its transaction commits.

Tasks (each app's ``tasks.py``) are entry points, like views: they import the services they run,
and services never import them (an import-linter contract keeps it so). A service that needs work
done later names the task by its dotted path, as a URL is named for ``reverse()``:

    enqueue_on_commit("fogcontrol.permits.tasks.send_notice_email", notice.pk)

The task is queued only when the transaction commits, so the worker sees the rows it is given,
and a rolled-back write queues nothing.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.module_loading import import_string
from django_tasks.base import Task


def enqueue_on_commit(task_path: str, /, *args, **kwargs) -> None:
    """Queue the task at ``task_path`` with these arguments when the current transaction commits.

    The path is resolved at once, so a wrong name fails inside the service (its transaction rolls
    back) rather than after the commit.
    """
    task = import_string(task_path)
    if not isinstance(task, Task):
        raise TypeError(f"{task_path} is not a task (decorate it with django_tasks.task).")
    transaction.on_commit(lambda: task.enqueue(*args, **kwargs))
