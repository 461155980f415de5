"""The one way to choose a language (docs/i18n.md): the header's switcher and the account page's
form both post here. Django's `set_language` sets the language cookie and returns to `next` (only a
path on this site: `url_has_allowed_host_and_scheme`, else the home page); for a signed-in user the
choice is also saved as their `preferred_language` through `user_language_set` (audited), so their
pages and their e-mails follow it from then on."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import check_for_language
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from fogcontrol.accounts.services import user_language_set


@require_POST
def set_language(request):
    response = django_set_language(request)
    if not request.user.is_authenticated:
        return response
    language = request.POST.get("language", "")
    before = request.user.preferred_language
    try:
        if not check_for_language(language):
            raise ValidationError({"preferred_language": "Choose English or Spanish."})
        user_language_set(user=request.user, language=language, acting_user=request.user)
    except ValidationError:
        messages.error(request, translation.gettext("Choose English or Spanish for your e-mails."))
        return response
    if language != before:
        with translation.override(language):
            messages.success(
                request, translation.gettext("Your pages and e-mails are now in the language you chose.")
            )
    return response
