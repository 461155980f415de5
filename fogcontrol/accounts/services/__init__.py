"""The accounts app's writes, each audited: API tokens (`tokens`), the second factor
(`second_factor`), passwords and deactivation (`users`)."""

from fogcontrol.accounts.services.second_factor import (
    backup_codes_replace,
    second_factor_confirm,
    second_factor_start,
)
from fogcontrol.accounts.services.tokens import api_token_get_or_create, api_token_revoke, api_token_rotate
from fogcontrol.accounts.services.users import password_set, user_deactivate, user_language_set

__all__ = [
    "api_token_get_or_create",
    "api_token_revoke",
    "api_token_rotate",
    "backup_codes_replace",
    "password_set",
    "second_factor_confirm",
    "second_factor_start",
    "user_deactivate",
    "user_language_set",
]
