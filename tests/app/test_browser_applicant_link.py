"""In Chromium: an applicant's link is shown as the full address of the case, with its expiry; pasted as it is into
another browser, or onto the app's root, it opens that case (a bare ``?case=`` pasted on the root opened the
bundled sample); the engineer finds it in the list of the links they made, with how often it was opened, and
revokes it there."""

from __future__ import annotations

import os
import re

import pytest

from tests.app.test_browser import CHROMIUM, streamlit_server
from tests.helpers.browser_nav import settle

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium not found at /usr/bin/chromium"),
]

PASSWORD = "correct horse battery"
# the applicant's own survey (not the bundled sample)
SURVEY = b"Tag,Species,DBH (in),Action\n101,Red maple,14,remove\n102,Northern red oak,20,remove\n"


def test_an_applicants_link_is_a_full_address_that_opens_the_case_and_is_revoked_from_the_list(tmp_path, chromium):
    from treecalc.register import Register

    db = f"sqlite:///{tmp_path / 'register.db'}"
    reg = Register(db)
    reg.add_user("ann", "engineer", PASSWORD, by="setup")
    cid = reg.new_case(by="ann", title="14 Elm St", kind="permit", survey=("14_Elm_St.csv", SURVEY))
    with (
        streamlit_server(tmp_path, {**os.environ, "TREECALC_DB": db}) as (_p, url),
    ):
        try:
            page = chromium.new_context(viewport={"width": 1400, "height": 1800}).new_page()
            page.set_default_timeout(90_000)
            page.goto(f"{url}/cases")
            main = page.locator('[data-testid="stMain"]')
            main.get_by_label("Name", exact=True).fill("ann")
            main.get_by_label("Password", exact=True).fill(PASSWORD)
            main.get_by_role("button", name="Sign in").click()
            main.get_by_text(f"Case {cid}: 14 Elm St").wait_for()
            settle(page)
            main.get_by_role("button", name="Make the applicant's link").click()
            code = main.locator("code").filter(has_text="case=")
            code.first.wait_for()
            address = code.first.inner_text().strip()
            # the whole address of the Cases page, not a bare ?case= to be added to something
            assert re.fullmatch(re.escape(url) + r"/cases\?case=[\w-]+", address), address
            token = address.rsplit("=", 1)[1]
            assert "until 20" in main.inner_text()  # its expiry date is said beside it

            for where in (address, f"{url}/?case={token}"):  # as given, and pasted onto the root
                other = chromium.new_context(viewport={"width": 1400, "height": 1800}).new_page()
                other.set_default_timeout(90_000)
                other.goto(where)
                other.locator('[data-testid="stMain"]').get_by_text(f"Case {cid}: 14 Elm St").wait_for()
                assert "Read-only" in other.locator('[data-testid="stMain"]').inner_text()
                other.close()

            side = page.locator('[data-testid="stSidebar"]')
            side.get_by_text("Share this view").click()
            side.get_by_text("Your links (1)").wait_for()
            grid = side.locator('[data-testid="stDataFrame"]').first
            grid.wait_for()
            side.get_by_role("button", name="Revoke", exact=True).click()
            settle(page)
            other = chromium.new_context().new_page()
            other.set_default_timeout(90_000)
            other.goto(address)
            other.locator('[data-testid="stMain"]').get_by_text("This link was revoked on").wait_for()
            assert "14 Elm St" not in other.locator('[data-testid="stMain"]').inner_text()
        finally:
            chromium.close()
    from treecalc.register import links

    made = links.links_made(reg, "ann")
    assert len(made) == 1 and made[0]["opened"] == 2 and "revoked" in made[0]["state"]
