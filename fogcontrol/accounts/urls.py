from django.urls import path

from fogcontrol.accounts.views import account, second_factor

app_name = "accounts"

urlpatterns = [
    path("", account.account, name="account"),
    path("token/", account.token_rotate, name="token-rotate"),
    path("token/revoke/", account.token_revoke, name="token-revoke"),
    path("two-factor/", second_factor.verify, name="two-factor-verify"),
    path("two-factor/set-up/", second_factor.enrol, name="two-factor-enrol"),
    path("two-factor/backup-codes/", second_factor.backup_codes, name="two-factor-backup-codes"),
    path("confirm/", second_factor.reauthenticate, name="reauthenticate"),
]
