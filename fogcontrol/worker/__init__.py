"""The background worker (`fogcontrol db_worker`, `make worker`): django-tasks-db's worker, made to
survive database errors or end with a non-zero status so that a supervisor restarts it."""
