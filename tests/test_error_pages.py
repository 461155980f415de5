"""Errors are shown in the product's frame with a way back (issue 19, item 4), never Django's bare
pages. DEBUG is off, as in production."""

import html

import pytest
from django.test import RequestFactory
from django.views import defaults

from fogcontrol.core.roles import Role


def text(response) -> str:
    return " ".join(html.unescape(response.content.decode()).split())


@pytest.fixture(autouse=True)
def _production(settings):
    settings.DEBUG = False


def test_a_missing_page_is_a_404_in_the_frame_with_a_way_home(client, town):
    client.force_login(town.users[Role.STAFF_READONLY])
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    page = text(response)
    assert "Page not found" in page and "/no/such/page/" in page
    assert 'class="topbar"' in page and 'aria-label="Main"' in page  # the frame, with its menu
    assert '<a href="/">Back to your home page</a>' in page


def test_a_refused_page_is_a_403_in_the_frame_saying_why(client, town):
    client.force_login(town.users[Role.STAFF_READONLY])
    response = client.get("/servicing/manifests/new/")
    assert response.status_code == 403
    page = text(response)
    assert "Not allowed" in page and "Your role may not submit manifests." in page
    assert 'class="topbar"' in page and '<a href="/">Back to your home page</a>' in page


def test_a_server_error_page_needs_no_request_context_and_keeps_the_frame():
    """Django renders 500.html with an empty context: it must not depend on the database or user."""
    response = defaults.server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    page = text(response)
    assert "Something went wrong" in page and 'class="topbar"' in page
    assert '<a href="/">Back to your home page</a>' in page
