"""The Django admin, for back-office repairs: every registered list and add page opens."""

import pytest
from django.contrib import admin
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "model",
    [m for m in admin.site._registry if m._meta.app_label in {"registry", "permits", "program", "servicing"}],
    ids=lambda m: m._meta.label,
)
def test_the_admin_list_opens(admin_client, town, model):
    url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
    assert admin_client.get(url).status_code == 200
    assert admin_client.get(url, {"q": "plaza"}).status_code == 200


def test_program_staff_without_superuser_cannot_open_the_admin(client, town):
    from fogcontrol.core.roles import Role

    client.force_login(town.users[Role.FOG_MANAGER])
    assert client.get("/admin/").status_code == 302
