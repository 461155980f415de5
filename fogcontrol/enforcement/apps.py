from django.apps import AppConfig


class EnforcementConfig(AppConfig):
    name = "fogcontrol.enforcement"
    label = "enforcement"

    def ready(self) -> None:
        from fogcontrol.core.owed import register_owed_provider
        from fogcontrol.enforcement import (  # noqa: F401 (navigation registers its menu)
            documents,
            documents_orders,  # noqa: F401 (registers its documents)
            hooks,
            navigation,
        )
        from fogcontrol.enforcement.owed import unpaid_citations
        from fogcontrol.enforcement.selectors import steps_orders  # noqa: F401 (adds its timeline lines)
        from fogcontrol.notices.signals import document_served
        from fogcontrol.servicing.signals import manifest_flag_referred

        documents.register()
        documents.register_spanish()
        # "Is anything owed?" (core.owed, H3): the citations paid under Chapter 1.01 (P2).
        register_owed_provider(unpaid_citations)
        manifest_flag_referred.connect(hooks.on_flag_referred, dispatch_uid="enforcement.flag_referred")
        # The mail log's mailing date sets L2's, P5's and P8's dates (hooks.on_document_served).
        document_served.connect(hooks.on_document_served, dispatch_uid="enforcement.document_served")
        from fogcontrol.core.sweep import register_step
        from fogcontrol.enforcement.tasks import sweep_step

        # Its step of the nightly sweep (fogcontrol/core/sweep.py).
        register_step("enforcement", order=60, run=sweep_step)
