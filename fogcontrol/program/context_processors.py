from django.utils.functional import SimpleLazyObject

from fogcontrol.program.selectors import town_profile


def town(request):
    return {"town": getattr(request, "town", None) or SimpleLazyObject(town_profile)}
