from django.apps import AppConfig


class MessagingConfig(AppConfig):
    name = "fogcontrol.messaging"

    def ready(self):
        # The messages' wording (notices' catalogue), the menus, and permits' notices to e-mail.
        from fogcontrol.messaging import hooks, navigation, wording  # noqa: F401
        from fogcontrol.permits.signals import notice_recorded

        notice_recorded.connect(hooks.on_notice_recorded, dispatch_uid="messaging.permit_notice")

        from fogcontrol.core.sweep import register_step
        from fogcontrol.messaging.services import reminders_send_due

        # The nightly sweep's last step (fogcontrol/core/sweep.py): the reminders, once the other
        # steps have moved every due date and status they are worked out from.
        register_step("reminders", order=80, run=reminders_send_due)
