from zoneinfo import ZoneInfo

from django.utils import timezone
from django.utils.functional import SimpleLazyObject

from fogcontrol.program.selectors import read_once, town_profile

# Requests that change nothing: the program's settings are read once for the whole page (issue 16).
SAFE_METHODS = frozenset({"GET", "HEAD"})


class TownTimezoneMiddleware:
    """Show every date and time in the Town's time zone, whatever the server's.

    The profile is read once per request and kept on `request.town` for templates; on a GET or
    HEAD, so are the rules and the calendar, however many selectors ask (``read_once``).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in SAFE_METHODS:
            return self._respond(request)
        with read_once():
            return self._respond(request)

    def _respond(self, request):
        request.town = SimpleLazyObject(town_profile)
        timezone.activate(ZoneInfo(request.town.time_zone))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
