"""Registry pages, mounted at /registry/."""

from django.urls import path

from fogcontrol.registry import views

app_name = "registry"

urlpatterns = [
    path("establishments/", views.establishment_list, name="establishment_list"),
    path("establishments/new/", views.establishment_create, name="establishment_create"),
    path("establishments/<int:pk>/", views.establishment_detail, name="establishment_detail"),
    path("establishments/<int:pk>/edit/", views.establishment_edit, name="establishment_edit"),
    path("establishments/<int:pk>/close/", views.establishment_close, name="establishment_close"),
    path("establishments/<int:pk>/reopen/", views.establishment_reopen, name="establishment_reopen"),
    path("devices/", views.device_list, name="device_list"),
    path("devices/new/", views.device_create, name="device_create"),
    path("devices/<int:pk>/", views.device_detail, name="device_detail"),
    path("devices/<int:pk>/edit/", views.device_edit, name="device_edit"),
    path("parcels/", views.parcel_list, name="parcel_list"),
    path("parcels/new/", views.parcel_create, name="parcel_create"),
    path("parcels/<int:pk>/", views.parcel_detail, name="parcel_detail"),
    path("parcels/<int:pk>/edit/", views.parcel_edit, name="parcel_edit"),
    path("contacts/", views.party_list, name="party_list"),
    path("contacts/new/", views.party_create, name="party_create"),
    path("contacts/<int:pk>/", views.party_detail, name="party_detail"),
    path("contacts/<int:pk>/edit/", views.party_edit, name="party_edit"),
    path("haulers/", views.hauler_list, name="hauler_list"),
    path("haulers/new/", views.hauler_create, name="hauler_create"),
    path("haulers/<int:pk>/", views.hauler_detail, name="hauler_detail"),
    path("haulers/<int:pk>/edit/", views.hauler_edit, name="hauler_edit"),
    path("haulers/<int:hauler_pk>/vehicles/new/", views.vehicle_create, name="vehicle_create"),
    path("haulers/<int:hauler_pk>/vehicles/<int:pk>/edit/", views.vehicle_edit, name="vehicle_edit"),
]
