from zoneinfo import ZoneInfo

from django.utils import timezone
from django.utils.functional import SimpleLazyObject

from fogcontrol.program.selectors import town_profile


class TownTimezoneMiddleware:
    """Show every date and time in the Town's time zone, whatever the server's.

    The profile is read once per request and kept on `request.town` for templates.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.town = SimpleLazyObject(town_profile)
        timezone.activate(ZoneInfo(request.town.time_zone))
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
