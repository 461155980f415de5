"""Background work of messaging: thin wrappers around its services (tests run them at once)."""

from django_tasks import task

from fogcontrol.messaging import services
from fogcontrol.program.selectors import town_today


@task()
def send_messages(message_ids: list[int]) -> dict:
    """Send queued messages; each is claimed first, so a retried task sends nothing twice."""
    return services.messages_send(message_ids=message_ids)


@task()
def reminders_nightly() -> dict:
    """Each night: every reminder due today, sent once."""
    return services.reminders_send_due(on=town_today(), acting_user="messaging.nightly")
