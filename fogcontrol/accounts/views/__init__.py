"""The accounts pages: the account page and API token (`account`), the second factor and
re-authentication (`second_factor`), password change and reset (`passwords`)."""
