"""In Chromium: a reload address whose survey the server no longer holds (it restarted: uploads are kept in its
memory) says so in the main area, keeps the address's options and shows no other survey's figures (not the bundled
sample's $9,000.00 permit)."""

from __future__ import annotations

import pytest

from tests.app.test_browser import CHROMIUM, streamlit_server
from tests.app.test_browser_user_surveys import _checked_basis, _write
from tests.helpers import app_surveys as surveys
from tests.helpers.browser_nav import nav as _nav
from tests.helpers.browser_nav import settle as _settle
from tests.helpers.browser_nav import upload as _upload

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium not found at /usr/bin/chromium"),
]


def test_a_link_to_a_survey_not_held_says_so_and_keeps_its_options(tmp_path, chromium):
    survey = _write(tmp_path, "d_lot_application.xlsx", surveys.developer_8())
    page = chromium.new_page(viewport={"width": 1280, "height": 1400})
    page.set_default_timeout(90_000)
    with streamlit_server(tmp_path) as (_, url):
        page.goto(url)
        page.get_by_text("Showing").first.wait_for()
        _upload(page, survey)
        _nav(page, "Permit & replacement")
        page.locator('[data-testid="stRadio"]').filter(has_text="Value basis").first.get_by_text(
            "Appraised replacement value (CTLA, USD)"
        ).click()
        _settle(page)
        # the address gains its reload token and then, after the basis's rerun, its options: wait for both
        page.wait_for_function("() => location.search.includes('resume=') && location.search.includes('opts=')")
        link = page.url.replace(url, "")
    # the address carries a random reload token, never the file's hash
    assert "resume=" in link and "opts=" in link and "survey=" not in link, link
    with streamlit_server(tmp_path) as (_, url):  # a new server: it holds no upload
        page = chromium.new_page(viewport={"width": 1280, "height": 1400})
        page.set_default_timeout(90_000)
        page.goto(url + link)
        main = page.locator('[data-testid="stMain"]')
        main.get_by_text("not known to this server").first.wait_for()
        _settle(page)
        text = main.inner_text()
        assert "not across a restart of the server" in text and "Its options are kept" in text
        # the sample's permit figures are not shown in the survey's place
        assert "$9,000.00" not in text and "sample_survey" not in text
        sidebar = page.locator('[data-testid="stSidebar"]').inner_text()
        assert "bundled sample)" not in sidebar
        # the link's options were taken: the survey uploaded again is valued on the basis it chose
        _nav(page, "Survey")
        _upload(page, survey)
        _nav(page, "Permit & replacement")
        assert _checked_basis(page) == "Appraised replacement value (CTLA, USD)"
