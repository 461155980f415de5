from django.urls import path

from fogcontrol.enforcement.views import orders

urlpatterns = [
    path("cases/<int:pk>/later/<slug:step>/", orders.order_step, name="order_step"),
    # The case page's H4 link (views.cases._suspension_url) names this one.
    path("cases/<int:pk>/suspension-notice/", orders.suspension_notice_new, name="suspension_notice_new"),
    path("hearings/<int:pk>/", orders.hearing_detail, name="hearing_detail"),
    path("hearings/<int:pk>/continue/", orders.hearing_continue, name="hearing_continue"),
    path("hearings/<int:pk>/decide/", orders.hearing_decide, name="hearing_decide"),
]
