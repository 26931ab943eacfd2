"""Fixtures shared by the app's browser tests."""

import pytest

from tests.app.test_browser import app_servers, server  # noqa: F401 - the `streamlit run app.py` fixtures, for every test here
from tests.helpers.browser_nav import CHROMIUM, BrowserOfATest, shared_chromium


@pytest.fixture
def chromium():
    """The test's browser: new contexts of this process's Chromium (:class:`BrowserOfATest`), every one closed
    at teardown, so that no cookie, storage or open page of one test is another's. Request it after ``server``
    (its contexts are then closed before the server stops)."""
    if not CHROMIUM.exists():
        pytest.skip("Chromium not found at /usr/bin/chromium (.ci/run installs it with apt-get where apt is available)")
    browser = BrowserOfATest(shared_chromium())
    try:
        yield browser
    finally:
        browser.close()
        for context in list(browser.browser.contexts):  # one opened from a page (page.context.browser)
            context.close()
