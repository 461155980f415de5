from django.urls import path

from fogcontrol.enforcement.views import worklist

urlpatterns = [
    path("", worklist.hearing_list, name="hearing_list"),
    path("work-list/", worklist.worklist, name="worklist"),
]
