from django.apps import AppConfig


class EnforcementConfig(AppConfig):
    name = "fogcontrol.enforcement"
    label = "enforcement"

    def ready(self) -> None:
        from fogcontrol.enforcement import (  # noqa: F401 (navigation registers its menu)
            documents,
            documents_orders,  # noqa: F401 (registers its documents)
            hooks,
            navigation,
        )
        from fogcontrol.enforcement.selectors import steps_orders  # noqa: F401 (adds its timeline lines)
        from fogcontrol.servicing.signals import manifest_flag_referred

        documents.register()
        manifest_flag_referred.connect(hooks.on_flag_referred, dispatch_uid="enforcement.flag_referred")
