from django.apps import AppConfig


class CoreConfig(AppConfig):
    """What every app shares: errors, actors and role checks, the copy-of-record chain, API, view
    and form helpers, generic partials. It imports no other app (an import-linter contract)."""

    name = "fogcontrol.core"
    label = "core"
    verbose_name = "Core"

    def ready(self):
        from fogcontrol.core import choice_labels

        choice_labels.install()
