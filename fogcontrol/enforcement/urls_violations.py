from django.urls import path

from fogcontrol.enforcement.views import violations

urlpatterns = [
    path("", violations.violation_list, name="violation_list"),
    path("new/", violations.violation_new, name="violation_new"),
    path("<int:pk>/cure/", violations.violation_cure_view, name="violation_cure"),
]
