from django.apps import AppConfig


class FeedsConfig(AppConfig):
    """Private calendar feeds (iCalendar): service due dates and hearings, each behind its owner's
    own token (docs/feeds.md)."""

    name = "fogcontrol.feeds"
