"""The header's language switcher (docs/i18n.md): Django's `set_language` (the language cookie and
the way back), which for a signed-in user also saves the choice as their `preferred_language`, so
their pages and their e-mails follow it from then on."""

from django.core.exceptions import ValidationError
from django.utils.translation import check_for_language
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from fogcontrol.accounts.services import user_language_set


@require_POST
def set_language(request):
    response = django_set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and check_for_language(language):
        try:
            user_language_set(user=request.user, language=language, acting_user=request.user)
        except ValidationError:
            pass  # a language the program writes no e-mail in: the pages alone follow it
    return response
