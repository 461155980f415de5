from fogcontrol.testing.browser import browser, page, phone_page  # noqa: F401  (fixtures)
