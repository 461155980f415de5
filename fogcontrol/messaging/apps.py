from django.apps import AppConfig


class MessagingConfig(AppConfig):
    name = "fogcontrol.messaging"

    def ready(self):
        # The messages' wording (notices' catalogue), the menus, and permits' notices to e-mail.
        from fogcontrol.messaging import hooks, navigation, wording  # noqa: F401
        from fogcontrol.permits.signals import notice_recorded

        notice_recorded.connect(hooks.on_notice_recorded, dispatch_uid="messaging.permit_notice")
