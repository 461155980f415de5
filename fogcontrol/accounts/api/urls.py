from django.urls import path

from fogcontrol.accounts.api.views import ObtainTokenView

urlpatterns = [
    path("token/", ObtainTokenView.as_view(), name="api-token"),
]
