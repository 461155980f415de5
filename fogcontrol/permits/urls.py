from django.urls import path

from fogcontrol.permits.views import applications, files, orders, permits

app_name = "permits"

urlpatterns = [
    path("", permits.home, name="home"),
    path("applications/", applications.application_list, name="application_list"),
    path("applications/new/", applications.application_new, name="application_new"),
    path("applications/<int:pk>/", applications.application_detail, name="application_detail"),
    path("applications/<int:pk>/edit/", applications.application_edit, name="application_edit"),
    path(
        "applications/<int:pk>/documents/<int:document_pk>/",
        files.application_document,
        name="application_document",
    ),
    path(
        "applications/<int:pk>/<slug:step>/",
        applications.application_step,
        name="application_step",
    ),
    path("list/", permits.permit_list, name="permit_list"),
    path("renewals/", permits.renewal_list, name="renewal_list"),
    path("without-permit/", permits.without_permit, name="without_permit"),
    path("remodel/", permits.remodel_list, name="remodel_list"),
    path("remodel/new/", permits.remodel_new, name="remodel_new"),
    path("remodel/<int:pk>/", permits.remodel_detail, name="remodel_detail"),
    path("remodel/<int:pk>/plans/", files.remodel_plans, name="remodel_plans"),
    path("fees/", permits.fee_schedules, name="fee_schedules"),
    path("notices/<int:pk>/letter/", permits.notice_letter, name="notice_letter"),
    path("modifications/<int:pk>/withdraw/", permits.modification_withdraw, name="modification_withdraw"),
    path("<int:pk>/", permits.permit_detail, name="permit_detail"),
    path("<int:pk>/pdf/", permits.permit_pdf_view, name="permit_pdf"),
    path("<int:pk>/versions/<int:number>/pdf/", permits.permit_pdf_view, name="permit_version_pdf"),
    path("<int:pk>/renew/", permits.permit_renew, name="permit_renew"),
    path("<int:pk>/change/", permits.permit_change, name="permit_change"),
    path("<int:pk>/modify/", permits.permit_modify, name="permit_modify"),
    path("<int:pk>/status/<slug:change>/", permits.permit_status, name="permit_status"),
    path("<int:pk>/orders/new/", orders.order_new, name="order_new"),
    path("orders/<int:pk>/decide/", orders.order_decide, name="order_decide"),
    path("orders/<int:pk>/appeal/", orders.order_appeal, name="order_appeal"),
]
