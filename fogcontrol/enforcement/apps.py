from django.apps import AppConfig


class EnforcementConfig(AppConfig):
    name = "fogcontrol.enforcement"
    label = "enforcement"

    def ready(self) -> None:
        from fogcontrol.enforcement import documents, hooks, navigation  # noqa: F401 (navigation registers its menu)
        from fogcontrol.servicing.signals import manifest_flag_referred

        documents.register()
        manifest_flag_referred.connect(hooks.on_flag_referred, dispatch_uid="enforcement.flag_referred")
