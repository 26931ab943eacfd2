"""In Chromium: a browser not signed in shares the survey it uploaded; the share writes nothing into the audited
record (no event, no file kept in it); the holder sees the view but cannot share it again (it is not the uploader);
the sharer revokes it and the holder's next page shows nothing of the survey, and the survey's bytes are deleted."""

from __future__ import annotations

import os
import re

import pytest
from sqlalchemy import func, select

from tests.app.test_browser import CHROMIUM, streamlit_server
from tests.helpers.browser_nav import nav, settle, upload

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium not found at /usr/bin/chromium"),
]

# a consultant's own survey (not the bundled sample)
BODY = "Tag,Species,DBH (in),Action\n201,Acer rubrum,18,remove\n202,Quercus alba,26,retain\n"
NAME = "Hill_Rd_lot_4_survey.csv"


def _count(reg, model):
    with reg.reading() as s:
        return s.scalar(select(func.count()).select_from(model))


def test_an_anonymous_share_stays_out_of_the_record_cannot_be_reshared_and_ends_on_revoke(tmp_path, chromium):
    from treecalc.register import Register
    from treecalc.register import models as m

    db = f"sqlite:///{tmp_path / 'register.db'}"
    reg = Register(db)
    survey = tmp_path / NAME
    survey.write_text(BODY)
    with (
        streamlit_server(tmp_path, {**os.environ, "TREECALC_DB": db}) as (_p, url),
    ):
        try:
            mine = chromium.new_context(viewport={"width": 1280, "height": 1400}).new_page()
            mine.set_default_timeout(90_000)
            mine.goto(url)
            mine.get_by_text("Showing").first.wait_for()
            upload(mine, survey)
            settle(mine)
            side = mine.locator('[data-testid="stSidebar"]')
            side.get_by_text("Share this view").click()
            side.get_by_text("apart from the Village's audited record", exact=False).first.wait_for()
            code = side.locator("code").filter(has_text="?link=")
            for _ in range(3):  # a click landing during a rerun is dropped by Streamlit: click again
                side.get_by_role("button", name="Make a link").click()
                try:
                    code.first.wait_for(timeout=20_000)
                    break
                except Exception:  # noqa: BLE001
                    continue
            address = code.first.inner_text().strip()
            assert re.fullmatch(re.escape(url) + r"/\?link=[\w-]+", address), address
            assert _count(reg, m.Event) == 0 and _count(reg, m.Blob) == 0  # nothing in the audited record
            assert _count(reg, m.AnonLink) == 1 and _count(reg, m.SharedFile) == 1

            theirs = chromium.new_context(viewport={"width": 1280, "height": 1400}).new_page()
            theirs.set_default_timeout(90_000)
            theirs.goto(address)
            theirs.get_by_text(f"Showing {NAME}").first.wait_for()
            settle(theirs)
            tside = theirs.locator('[data-testid="stSidebar"]')
            tside.get_by_text("Share this view").click()
            tside.get_by_text("opened from a link", exact=False).first.wait_for()
            assert tside.get_by_role("button", name="Make a link").count() == 0

            side.get_by_role("button", name="Revoke this link").click()
            side.get_by_text("Revoked: the link no longer opens.").wait_for()
            nav(theirs, "Permit & replacement")
            theirs.locator('[data-testid="stMain"]').get_by_text(
                "Its survey is no longer shown", exact=False
            ).first.wait_for()
            settle(theirs)
            assert NAME not in theirs.locator("body").inner_text()
        finally:
            chromium.close()
    # revoked: the share and the survey's bytes are deleted; the audited record never held them
    assert _count(reg, m.AnonLink) == 0 and _count(reg, m.SharedFile) == 0 and _count(reg, m.Event) == 0
