from django.urls import path

from fogcontrol.enforcement.views import orders

urlpatterns = [
    path("cases/<int:pk>/later/<slug:step>/", orders.order_step, name="order_step"),
    path("hearings/<int:pk>/", orders.hearing_detail, name="hearing_detail"),
    path("hearings/<int:pk>/continue/", orders.hearing_continue, name="hearing_continue"),
    path("hearings/<int:pk>/decide/", orders.hearing_decide, name="hearing_decide"),
]
