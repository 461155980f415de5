"""Response headers (issue 15, "Headers"; docs/security.md): a Content-Security-Policy without
`unsafe-inline`, Permissions-Policy, nosniff, frame denial, a referrer policy and `no-store` on
pages, API answers and the login page; HSTS in production; the schema and API docs behind a login
in production."""

import os
import subprocess
import sys

import pytest
from django.test import Client, override_settings

from conftest import api_as
from fogcontrol.core.roles import Role
from fogcontrol.testing.auth import force_login_verified


def _policy(response) -> dict[str, list[str]]:
    directives = {}
    for part in response["Content-Security-Policy"].split(";"):
        name, *values = part.split()
        directives[name] = values
    return directives


def _assert_headers(response):
    policy = _policy(response)
    assert policy["default-src"] == ["'self'"]
    assert policy["script-src"] == ["'self'"] and policy["style-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
    assert "unsafe-inline" not in response["Content-Security-Policy"]
    assert "unsafe-eval" not in response["Content-Security-Policy"]
    assert (
        "camera=()" in response["Permissions-Policy"] and "geolocation=()" in response["Permissions-Policy"]
    )
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"
    assert "no-store" in response["Cache-Control"]


def test_a_page_an_api_answer_and_the_login_page_carry_every_header(town):
    fse = town.own_fse
    client = Client()
    login = client.get("/login/")
    assert login.status_code == 200
    _assert_headers(login)

    force_login_verified(client, town.users[Role.FOG_MANAGER])
    page = client.get(f"/registry/establishments/{fse.pk}/")
    assert page.status_code == 200 and fse.business_name in page.content.decode()
    _assert_headers(page)
    partial = client.get("/registry/establishments/", {"q": "wok"}, HTTP_HX_REQUEST="true")
    assert partial.status_code == 200
    _assert_headers(partial)

    answer = api_as(town.users[Role.FOG_MANAGER]).get(f"/api/v1/establishments/{fse.pk}/")
    assert answer.status_code == 200 and answer.json()["business_name"] == fse.business_name
    _assert_headers(answer)
    # No HSTS outside production: a developer's http://localhost must not be pinned to HTTPS.
    assert "Strict-Transport-Security" not in page


def test_the_api_docs_page_loads_swagger_ui_without_inline_script(db):
    page = Client().get("/api/v1/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "<style" not in html and "<script>" not in html
    assert _policy(page)["img-src"] == ["'self'", "data:"]  # Swagger UI's stylesheet icons
    assert "unsafe-inline" not in page["Content-Security-Policy"]
    script = Client().get("/api/v1/docs/", {"script": ""})
    assert script.status_code == 200 and "SwaggerUIBundle" in script.content.decode()


@override_settings(FOGCONTROL_PRODUCTION=True, SECURE_HSTS_SECONDS=31536000)
def test_in_production_https_answers_carry_hsts(town):
    client = Client()  # a new client builds its middleware with these settings
    force_login_verified(client, town.users[Role.INSPECTOR])
    response = client.get("/registry/establishments/", secure=True)
    assert response.status_code == 200
    assert response["Strict-Transport-Security"] == "max-age=31536000"


@override_settings(FOGCONTROL_PRODUCTION=True)
def test_in_production_the_schema_and_the_docs_need_a_signed_in_user(town):
    anonymous = Client()
    assert anonymous.get("/api/v1/schema/").status_code in (401, 403)
    docs = anonymous.get("/api/v1/docs/")
    assert docs.status_code == 302 and docs["Location"].startswith("/login/?next=/api/v1/docs/")
    assert anonymous.get("/api/v1/docs/", {"script": ""}).status_code == 302

    user = town.users[Role.HAULER]
    assert api_as(user).get("/api/v1/schema/", {"format": "json"}).status_code == 200  # a token
    signed_in = Client()
    force_login_verified(signed_in, user)
    assert signed_in.get("/api/v1/docs/").status_code == 200


def test_production_settings_turn_on_hsts(tmp_path):
    env = {
        "PATH": "/usr/bin:/bin",
        "FOGCONTROL_ENV": "production",
        "FOGCONTROL_DATA_DIR": str(tmp_path),
        "SECRET_KEY": "s" * 60,
        "ALLOWED_HOSTS": "fog.example.gov",
        "FOGCONTROL_RECORD_KEY": "k" * 64,
        "DJANGO_SETTINGS_MODULE": "fogcontrol.settings",
    }
    code = (
        "import django; django.setup(); from django.conf import settings as s; print(s.SECURE_HSTS_SECONDS)"
    )
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60,
                            cwd=os.getcwd())  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert int(result.stdout.split()[-1]) >= 31536000


@pytest.mark.parametrize("path", ["/api/v1/schema/", "/api/v1/docs/"])
def test_in_development_the_schema_and_the_docs_stay_open(db, path):
    assert Client().get(path).status_code == 200
