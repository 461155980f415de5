"""The menu items of the signed-in user's own pages: the home page (the start page every role
lands on, summing up the apps below), the account and its API token, the API documentation."""

from django.utils.translation import gettext_lazy as _

from fogcontrol.core.navigation import MenuItem, register

register(group="home", label=_("Home"), weight=0, items=[MenuItem(_("Home"), "home")])
register(
    group="you",
    label=_("You"),
    weight=90,
    items=[MenuItem(_("Account"), "accounts:account"), MenuItem(_("API"), "api-docs")],
)
