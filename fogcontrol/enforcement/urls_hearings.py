from django.urls import path

from fogcontrol.enforcement.views import worklist

urlpatterns = [
    path("work-list/", worklist.worklist, name="worklist"),
]
