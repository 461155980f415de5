"""Browser tests: Debian's Chromium driven by Playwright against pytest-django's `live_server`.

Use from a test module (or a conftest) with `from fogcontrol.testing.browser import browser, page`,
and mark the tests `@pytest.mark.browser`. The browser is Debian's `/usr/bin/chromium`
(`apt-get install chromium`), never a Playwright download. Without it the tests are skipped on a
laptop but fail in CI (`CI=true`), so a broken CI image cannot pass by skipping.

Playwright's sync API keeps an asyncio event loop running in the test thread, which makes Django
refuse database calls there ("SynchronousOnlyOperation"); the `browser` fixture sets
DJANGO_ALLOW_ASYNC_UNSAFE while the browser is open and restores it afterwards.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from fogcontrol.accounts.models import User
from fogcontrol.accounts.sessions import second_factor_required
from fogcontrol.testing.auth import give_authenticator, unused_code

CHROMIUM = os.environ.get("FOGCONTROL_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# The password fogcontrol.testing.factories.UserFactory gives every user.
PASSWORD = "correct horse battery"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 10_000


def _require_chromium() -> None:
    if os.path.exists(CHROMIUM):
        return
    message = f"Chromium not found at {CHROMIUM}: apt-get install chromium (or set FOGCONTROL_CHROMIUM)."
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="module")
def browser() -> Iterator:
    """One Chromium for the test module."""
    _require_chromium()
    from playwright.sync_api import expect, sync_playwright

    # A loaded 2-core CI machine can take longer than Playwright's 5 s to answer; what the user
    # sees is still asserted exactly, only waited for as long as the page actions are.
    expect.set_options(timeout=TIMEOUT_MS)

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                yield chromium
            finally:
                chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


def _new_page(browser, live_server, viewport: dict, locale: str = "en-US"):
    """A tab with its own cookies; `locale` is the browser's language (its Accept-Language)."""
    context = browser.new_context(base_url=live_server.url, viewport=viewport, locale=locale)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return context, page


@pytest.fixture
def page(browser, live_server, transactional_db) -> Iterator:
    """A fresh desktop-size tab on the live server (its own cookies)."""
    context, tab = _new_page(browser, live_server, DESKTOP)
    yield tab
    context.close()


@pytest.fixture
def phone_page(browser, live_server, transactional_db) -> Iterator:
    """A fresh phone-size tab (390 x 844, as an inspector's phone)."""
    context, tab = _new_page(browser, live_server, PHONE)
    yield tab
    context.close()


def sign_in(page, username: str, password: str = PASSWORD) -> None:
    """Sign in through the login page, as a person would: with the second factor for staff (and
    anyone with an authenticator), typing the code their phone would show
    (fogcontrol.testing.auth gives them an authenticator with a known key)."""
    user = User.objects.get(username=username)
    device = give_authenticator(user) if second_factor_required(user) else None
    page.goto("/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(lambda url: "/login/" not in url)
    if device is not None:
        page.get_by_label("Code").fill(unused_code(device))
        page.get_by_role("button", name="Verify").click()
        page.wait_for_url(lambda url: "/account/two-factor/" not in url)
