"""In a real browser: a reload keeps one's own upload (by a random token bound to the browser's own cookie), the
same address opens nothing in another browser, and an address by the file's hash opens nothing anywhere."""

from __future__ import annotations

import hashlib
import urllib.parse

import pytest

from tests.app.test_browser import CHROMIUM, streamlit_server
from tests.helpers.browser_nav import upload

BODY = "Tag,Species,DBH,Action\n1,Acer rubrum,12,remove\n2,Quercus rubra,20,removed\n"


@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium not found at /usr/bin/chromium")
def test_a_reload_keeps_ones_own_upload_and_the_address_opens_nothing_elsewhere(tmp_path, chromium):
    x = tmp_path / "Smith_12_Elm_St_client_survey.csv"
    x.write_text(BODY)
    sha = hashlib.sha256(BODY.encode()).hexdigest()
    with streamlit_server(tmp_path) as (_proc, url):
        try:
            mine = chromium.new_context().new_page()
            mine.set_default_timeout(60_000)
            mine.goto(url)
            mine.get_by_text("Showing").first.wait_for()
            upload(mine, x)
            mine.wait_for_function("() => new URLSearchParams(location.search).has('resume')")
            q = urllib.parse.parse_qs(urllib.parse.urlparse(mine.url).query)
            assert "survey" not in q and sha not in mine.url  # no file's hash in the address
            address = mine.url

            mine.reload()  # the same browser: its own work back
            mine.get_by_text(f"Showing {x.name}").first.wait_for()

            other = chromium.new_context().new_page()  # another browser (its own cookies) given the address
            other.set_default_timeout(60_000)
            other.goto(address)
            main = other.locator('[data-testid="stMain"]')
            main.get_by_text("reloads a session of another browser", exact=False).first.wait_for()
            assert other.get_by_text("Smith_12_Elm_St").count() == 0

            guessed = chromium.new_context().new_page()  # whoever has a copy of the file, by its hash
            guessed.set_default_timeout(60_000)
            guessed.goto(f"{url}/?survey={sha}")
            guessed.locator('[data-testid="stMain"]').get_by_text("no longer opens", exact=False).first.wait_for()
            assert guessed.get_by_text("Smith_12_Elm_St").count() == 0
        finally:
            chromium.close()


@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium not found at /usr/bin/chromium")
def test_an_expired_or_revoked_shared_link_says_so_in_the_main_area(tmp_path, chromium):
    import os

    from sqlalchemy import update

    from treecalc.register import Register, auth, links
    from treecalc.register import models as m

    db = f"sqlite:///{tmp_path / 'register.db'}"
    reg = Register(db)
    sha = reg.put_blob(BODY.encode(), by="ann")

    def link() -> str:
        return links.make_link(
            reg, by="ann", kind="view", survey_sha256=sha, survey_name="Smith_12_Elm_St.csv", params={}
        )

    revoked, expired, live = link(), link(), link()
    links.revoke_link(reg, revoked, by="ann")
    with reg.engine.begin() as c:
        c.execute(
            update(m.Link)
            .where(m.Link.token_sha256 == auth._sha(expired))
            .values(expires_at="2001-02-03T00:00:00+00:00")
        )
    with streamlit_server(tmp_path, {**os.environ, "TREECALC_DB": db}) as (_proc, url):
        try:
            page = chromium.new_context().new_page()
            page.set_default_timeout(60_000)
            main = page.locator('[data-testid="stMain"]')
            page.goto(f"{url}/?link={live}")  # the live one opens its survey
            page.get_by_text("Showing Smith_12_Elm_St.csv").first.wait_for()
            for token, said in ((revoked, "This link was revoked on"), (expired, "This link expired on 2001-02-03")):
                page = chromium.new_context().new_page()
                page.set_default_timeout(60_000)
                page.goto(f"{url}/?link={token}")
                main = page.locator('[data-testid="stMain"]')
                main.get_by_text(said, exact=False).first.wait_for()
                assert page.get_by_text("Smith_12_Elm_St").count() == 0  # no survey, not its name
                assert page.get_by_text("sample_survey").count() == 0  # nor the sample's in its place
        finally:
            chromium.close()


@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Chromium not found at /usr/bin/chromium")
def test_two_users_with_the_same_bytes_each_reload_their_own_name(tmp_path, chromium):
    # X's link showed Y's file name once Y had uploaded the same bytes (the server kept uploads by their hash)
    x = tmp_path / "x" / "Smith_12_Elm_St_client_survey.csv"
    y = tmp_path / "y" / "mine.csv"
    for f in (x, y):
        f.parent.mkdir()
        f.write_text(BODY)
    with streamlit_server(tmp_path) as (_proc, url):
        try:
            px, py = chromium.new_context().new_page(), chromium.new_context().new_page()
            for page, f in ((px, x), (py, y)):
                page.set_default_timeout(60_000)
                page.goto(url)
                page.get_by_text("Showing").first.wait_for()
                upload(page, f)
                page.wait_for_function("() => new URLSearchParams(location.search).has('resume')")
            for page, mine, theirs in ((px, x, y), (py, y, x)):
                page.reload()
                page.get_by_text(f"Showing {mine.name}").first.wait_for()
                page.locator('[data-testid="stSidebar"]').get_by_text(
                    f"Survey: {mine.name} (uploaded)"
                ).first.wait_for()
                assert page.get_by_text(theirs.stem).count() == 0
        finally:
            chromium.close()
