from django.urls import path

from fogcontrol.enforcement.views import cases

urlpatterns = [
    path("", cases.case_list, name="case_list"),
    path("cases/new/", cases.case_new, name="case_new"),
    path("cases/<int:pk>/", cases.case_detail, name="case_detail"),
    path("cases/<int:pk>/steps/<slug:step>/", cases.case_step, name="case_step"),
    path("cases/<int:pk>/milestones/<int:milestone_pk>/met/", cases.milestone_met, name="milestone_met"),
    path("cases/<int:pk>/citations/<int:citation_pk>/paid/", cases.citation_paid, name="citation_paid"),
    path(
        "cases/<int:pk>/referrals/<int:referral_pk>/outcome/", cases.referral_outcome, name="referral_outcome"
    ),
]
