from django.apps import AppConfig


class BillingConfig(AppConfig):
    name = "fogcontrol.billing"

    def ready(self):
        # The app's items in the menus, and the answer to "is anything owed?" for the apps below
        # (fogcontrol.core.owed: enforcement's H3, permits' B6 renewal on a held licence).
        from fogcontrol.billing import navigation  # noqa: F401
        from fogcontrol.billing.owed import owed_by_establishment
        from fogcontrol.core.owed import register_owed_provider

        register_owed_provider(owed_by_establishment)
        from fogcontrol.billing.tasks import sweep_step
        from fogcontrol.core.sweep import register_step

        # Its step of the nightly sweep (fogcontrol/core/sweep.py).
        register_step("billing", order=70, run=sweep_step)
