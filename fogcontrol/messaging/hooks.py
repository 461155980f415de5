"""What messaging hears from the apps below (docs/architecture.md, "How a lower app tells the apps
above"): a permit notice with e-mail addresses goes out through the program's sending path."""

from fogcontrol.messaging.services.sending import permit_notice_queue


def on_notice_recorded(sender, *, notice, acting_user, **kwargs) -> bool:
    permit_notice_queue(notice=notice, acting_user=acting_user)
    return True
