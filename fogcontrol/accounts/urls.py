from django.urls import path

from fogcontrol.accounts import views

app_name = "accounts"

urlpatterns = [
    path("", views.account, name="account"),
    path("token/", views.token_rotate, name="token-rotate"),
    path("token/revoke/", views.token_revoke, name="token-revoke"),
]
