from django.urls import path
from rest_framework.routers import SimpleRouter

from fogcontrol.billing.api import views

router = SimpleRouter()
router.register("invoices", views.InvoiceViewSet, basename="invoice")
router.register("payments", views.PaymentViewSet, basename="payment")
router.register("accounts", views.AccountViewSet, basename="account")
router.register("liens", views.LienViewSet, basename="lien")

urlpatterns = [
    path("licence-holds/", views.LicenceHoldView.as_view(), name="licence-holds"),
    *router.urls,
]
