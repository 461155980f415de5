"""The menu items of the signed-in user's own pages: the home page (the start page every role
lands on, summing up the apps below), the account and its API token, the API documentation."""

from fogcontrol.core.navigation import MenuItem, register

register(group="home", label="Home", weight=0, items=[MenuItem("Home", "home")])
register(
    group="you",
    label="You",
    weight=90,
    items=[MenuItem("Account", "accounts:account"), MenuItem("API", "api-docs")],
)
