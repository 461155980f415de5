from django.urls import path

from fogcontrol.enforcement.views import orders, penalty_approval, records

urlpatterns = [
    path("cases/<int:pk>/later/<slug:step>/", orders.order_step, name="order_step"),
    # The case page's H4 link (views.cases._suspension_url) names this one.
    path("cases/<int:pk>/suspension-notice/", orders.suspension_notice_new, name="suspension_notice_new"),
    # One record of a case: complaint waiver and appeal (P6), order appeal (L6), reinstatement (O2).
    path("cases/<int:pk>/record/<slug:step>/<int:record>/", records.record_step, name="record_step"),
    # A penalty order and its second approval (two-person rule).
    path("penalty-orders/<int:pk>/", penalty_approval.penalty_order_detail, name="penalty_order_detail"),
    path(
        "penalty-orders/<int:pk>/approve/",
        penalty_approval.penalty_order_approve,
        name="penalty_order_approve",
    ),
    path(
        "penalty-orders/<int:pk>/refuse/", penalty_approval.penalty_order_refuse, name="penalty_order_refuse"
    ),
    path("hearings/<int:pk>/", orders.hearing_detail, name="hearing_detail"),
    path("hearings/<int:pk>/continue/", orders.hearing_continue, name="hearing_continue"),
    path("hearings/<int:pk>/decide/", orders.hearing_decide, name="hearing_decide"),
]
