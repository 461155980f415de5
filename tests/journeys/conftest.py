"""What every journey shares (issue 18, "Journeys in a real browser"): Debian's Chromium through
Playwright against one live server, a tab per person (`open_tab`), a screenshot of each tab kept
when the test fails, and the copies of record a journey makes cleared after it.

Screenshots go to $FOGCONTROL_SCREENSHOTS (default: test-results/journeys/ in the repository),
named after the test and the person's tab.
"""

from __future__ import annotations

import os
import re
import urllib.request
from pathlib import Path

import pytest
from django.core.management import call_command

from fogcontrol.servicing.tests.record_attacks import drop_triggers, recreate_triggers
from fogcontrol.testing.browser import DESKTOP, _new_page, browser  # noqa: F401  (fixture)

SCREENSHOTS = Path(
    os.environ.get(
        "FOGCONTROL_SCREENSHOTS", Path(__file__).resolve().parents[2] / "test-results" / "journeys"
    )
)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


_warmed = []


@pytest.fixture
def _warm_live_server(live_server, transactional_db):
    """The live server's first answer loads the URLconf and compiles the templates: on a loaded
    2-core CI machine that alone can outlast a page step's 10 s, so it is asked for once per run,
    here, with a minute's bound."""
    if not _warmed:
        with urllib.request.urlopen(f"{live_server.url}/login/", timeout=60) as answer:  # noqa: S310  (loopback)
            answer.read()
        _warmed.append(True)


@pytest.fixture
def open_tab(browser, live_server, transactional_db, _warm_live_server, request):  # noqa: F811
    """`open_tab(viewport=DESKTOP, name="tab", locale="en-US")`: a fresh tab with its own cookies
    (one person), its browser set to `locale` (the Accept-Language it sends)."""
    opened = []

    def open_(viewport: dict = DESKTOP, name: str = "tab", locale: str = "en-US"):
        context, tab = _new_page(browser, live_server, viewport, locale)
        opened.append((name, context, tab))
        return tab

    yield open_
    report = getattr(request.node, "report_call", None)
    failed = report is None or report.failed
    for name, context, tab in opened:
        if failed:
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            stem = re.sub(r"[^\w.-]+", "_", f"{request.node.name}-{name}")
            try:
                tab.screenshot(path=str(SCREENSHOTS / f"{stem}.png"), full_page=True)
            except Exception as problem:  # noqa: BLE001  (a dead tab must not hide the failure)
                print(f"No screenshot of {name}: {problem}")
        context.close()


@pytest.fixture(autouse=True)
def _copies_of_record_cleared(transactional_db):
    """A journey commits manifests and issued documents, which the copy-of-record triggers keep
    from any DELETE (F5): lift them for the flush that ends the test, and put them back."""
    yield
    drop_triggers()
    call_command("flush", interactive=False, verbosity=0, inhibit_post_migrate=True)
    recreate_triggers()
