"""In Chromium: a session opened from a shared link stays a link session for its whole life. Open the link, go to
another page, reload: the address still carries the link (never a reload token of its own), the original file is
still not in Save project; once the sharer revokes the link the next page and the next reload show nothing of the
survey and no download of it."""

from __future__ import annotations

import io
import json
import os
import zipfile

import pytest

from tests.app.test_browser import CHROMIUM, streamlit_server
from tests.helpers.browser_nav import nav, settle

# a user's own survey (not the bundled sample): a lot of three trees, two removed
BODY = (
    "Tag,Species,DBH (in),Action\n101,Acer rubrum,14,remove\n102,Quercus rubra,22,retain\n103,Acer saccharum,9,remove\n"
)
NAME = "Smith_12_Elm_St_client_survey.csv"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium not found at /usr/bin/chromium"),
]


def _saved_project(page) -> dict:
    """Save project's file, as the holder would download it: its project.json and its members."""
    sidebar = page.locator('[data-testid="stSidebar"]')
    expander = sidebar.get_by_text("Project", exact=True).first
    if not sidebar.get_by_text("Save project").first.is_visible():
        expander.click()
    with page.expect_download() as dl:
        sidebar.get_by_text("Save project").first.click()
    with zipfile.ZipFile(io.BytesIO(open(dl.value.path(), "rb").read())) as z:
        return {"meta": json.loads(z.read("project.json")), "names": z.namelist()}


def test_a_link_session_stays_a_link_through_pages_and_reloads_and_loses_all_on_revoke(tmp_path, chromium):
    from treecalc.register import Register, links

    db = f"sqlite:///{tmp_path / 'register.db'}"
    reg = Register(db)
    sha = reg.put_blob(BODY.encode(), by="ann")
    token = links.make_link(reg, by="ann", kind="view", survey_sha256=sha, survey_name=NAME, params={})
    with streamlit_server(tmp_path, {**os.environ, "TREECALC_DB": db}) as (_p, url):
        try:
            page = chromium.new_context(accept_downloads=True, viewport={"width": 1280, "height": 1400}).new_page()
            page.set_default_timeout(90_000)
            main = page.locator('[data-testid="stMain"]')
            page.goto(f"{url}/?link={token}")
            page.get_by_text(f"Showing {NAME}").first.wait_for()
            nav(page, "Permit & replacement")
            page.wait_for_function("() => new URLSearchParams(location.search).has('link')")
            settle(page)
            assert f"link={token}" in page.url and "resume=" not in page.url, page.url
            page.reload()  # a new session from the same address: the link opens again, as a link
            page.locator('[data-testid="stMain"] h1').filter(has_text="Permit").first.wait_for()
            page.locator('[data-testid="stSidebar"]').get_by_text(NAME).first.wait_for()
            settle(page)
            assert f"link={token}" in page.url and "resume=" not in page.url, page.url
            saved = _saved_project(page)
            assert saved["meta"]["survey"] is None and not any(n.startswith("survey/") for n in saved["names"])

            links.revoke_link(reg, token, by="ann")
            nav(page, "Permit & replacement")  # the next run of the same session checks the link again
            main.get_by_text("This link was revoked on", exact=False).first.wait_for()
            settle(page)
            assert NAME not in page.locator("body").inner_text()
            page.reload()
            main.get_by_text("This link was revoked on", exact=False).first.wait_for()
            settle(page)
            nav(page, "Violations & penalties")
            settle(page)
            body = page.locator("body").inner_text()
            assert NAME not in body and "Smith_12_Elm_St" not in body
            assert "resume=" not in page.url
            saved = _saved_project(page)
            assert saved["meta"]["survey"] is None and not any(n.startswith("survey/") for n in saved["names"])
        finally:
            chromium.close()
