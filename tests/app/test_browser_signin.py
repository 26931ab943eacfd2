"""Sign-in as a web app has it, in Chromium on ``streamlit run app.py``: a signed-in session survives a reload
(an HttpOnly, SameSite cookie holds it, never the address), sign-out ends it on the server, and the first
account of an empty register is made only with the setup token shown on the server's console."""

from __future__ import annotations

import os
import re
import time

import pytest

from tests.app.test_browser import CHROMIUM, streamlit_server, upload
from tests.register.conftest import staff

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="Chromium not found at /usr/bin/chromium (.ci/run installs it with apt-get where apt is available)",
    ),
]

PASSWORD = "correct horse battery"


def _survey(tmp_path):
    p = tmp_path / "22_Birch_Ln_arborist_survey.csv"
    p.write_text("Tag,Species,DBH (in),Action\n7,Red maple,14,remove\n8,Sugar maple,9,retain\n")
    return p


def _main(page):
    return page.locator('[data-testid="stMain"]')


def _sessions(db):
    from sqlalchemy import create_engine, text

    engine = create_engine(db)
    try:
        with engine.connect() as c:
            return c.execute(text("SELECT name FROM sessions")).scalars().all()
    finally:
        engine.dispose()


def _wait_cookie(context, page):
    for _ in range(100):
        got = [c for c in context.cookies() if c["name"] == "treecalc_session"]
        if got:
            return got[0]
        page.wait_for_timeout(200)
    raise AssertionError("no treecalc_session cookie was set after the sign-in")


def test_a_signed_in_reload_stays_signed_in_and_sign_out_ends_it_on_the_server(tmp_path, chromium):
    from treecalc.register import Register

    db = f"sqlite:///{tmp_path / 'register.db'}"
    # the register's first account is an engineer's ("admin"), who makes the clerk's
    staff(Register(db), "admin").add_user("ann", "clerk", PASSWORD, by="admin")
    survey = _survey(tmp_path)
    env = {**os.environ, "TREECALC_DB": db}
    with streamlit_server(tmp_path, env=env) as (_, url):
        try:
            context = chromium.new_context(viewport={"width": 1400, "height": 1800})
            page = context.new_page()
            page.set_default_timeout(90_000)
            page.goto(url)
            upload(page, survey)
            page.locator('[data-testid="stSidebarNav"]').get_by_text("Cases").click()
            main = _main(page)
            main.get_by_label("Name", exact=True).fill("ann")
            main.get_by_label("Password", exact=True).fill(PASSWORD)
            main.get_by_role("button", name="Sign in").click()
            main.get_by_text("Signed in as").wait_for()
            cookie = _wait_cookie(context, page)
            # scripts of the page cannot read it, another site's request does not carry it, it lasts the session's
            # 8 hours (a 30-second margin for the test's own time)
            assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
            assert 8 * 3600 - 30 <= cookie["expires"] - time.time() <= 8 * 3600
            assert cookie["value"] not in page.url and "treecalc_session" not in page.evaluate("document.cookie")
            assert _sessions(db) == ["ann"]

            page.reload()
            main = _main(page)
            main.get_by_text("Signed in as").wait_for()
            assert "ann" in main.get_by_text("Signed in as").inner_text()
            assert main.get_by_role("button", name="Sign in").count() == 0
            # the survey is the user's, not the sample, after the reload too
            page.locator('[data-testid="stSidebar"]').get_by_text(survey.name).first.wait_for()

            # a view shared by a link, opened in this same signed-in browser: a link session, never signed in
            from treecalc.register import Register, links

            shared = links.make_link(Register(db), by="ann", kind="view")
            linked = context.new_page()
            linked.set_default_timeout(90_000)
            linked.goto(f"{url}/cases?link={shared}")
            _main(linked).get_by_role("button", name="Sign in").wait_for()
            assert _main(linked).get_by_text("Signed in as").count() == 0
            linked.close()

            main.get_by_role("button", name="Sign out").click()
            main.get_by_role("button", name="Sign in").wait_for()
            assert _sessions(db) == []  # ended in the register, not only in this tab
            for _ in range(100):
                if not [c for c in context.cookies() if c["name"] == "treecalc_session"]:
                    break
                page.wait_for_timeout(200)
            else:
                raise AssertionError("the treecalc_session cookie was not cleared by the sign-out")
            page.reload()
            main = _main(page)
            main.get_by_role("button", name="Sign in").wait_for()
            assert main.get_by_text("Signed in as").count() == 0

            # the old cookie, replayed by another browser: the server ended its session
            thief = chromium.new_context()
            thief.add_cookies([{k: cookie[k] for k in ("name", "value", "domain", "path")}])
            other = thief.new_page()
            other.set_default_timeout(90_000)
            other.goto(f"{url}/cases")
            _main(other).get_by_role("button", name="Sign in").wait_for()
            assert _main(other).get_by_text("Signed in as").count() == 0
        finally:
            chromium.close()


def test_the_first_account_needs_the_setup_token_from_the_servers_console(tmp_path, chromium):
    from treecalc.register import Register, auth

    db = f"sqlite:///{tmp_path / 'register.db'}"
    reg = Register(db)  # an empty register
    env = {**os.environ, "TREECALC_DB": db}
    with streamlit_server(tmp_path, env=env) as (_, url):
        log = (tmp_path / "streamlit.log").read_text()
        found = re.search(r"Setup token \(works once, for 30 minutes\): (\S+)", log)
        assert found, log[-2000:]
        token = found.group(1)
        try:
            page = chromium.new_page(viewport={"width": 1400, "height": 1800})
            page.set_default_timeout(90_000)
            page.goto(f"{url}/cases")
            form = page.locator('[data-testid="stForm"]').filter(has_text="Make the first account")

            def make(with_token, name):
                form.get_by_label("Setup token").fill(with_token)
                form.get_by_label("Name", exact=True).fill(name)
                form.get_by_label("Password", exact=True).fill(PASSWORD)
                form.get_by_label("Password again").fill(PASSWORD)
                form.get_by_role("button", name="Make the first account").click()

            for guess in ("", "letmein", token[:-2]):  # a visitor without the token
                make(guess, "mallory")
                _main(page).get_by_text("The setup token is wrong, used or expired").wait_for()
                assert not auth.has_account(reg)
                page.reload()
                form.wait_for()

            make(token, "ann")
            _main(page).get_by_text("Account ann (engineer) made").wait_for()
            assert auth.session_user(reg, auth.sign_in(reg, "ann", PASSWORD)[0]) == ("ann", "engineer")
            page.reload()
            _main(page).get_by_role("button", name="Sign in").wait_for()
            assert form.count() == 0  # an account exists: no first-account form, the token is spent
            with pytest.raises(Exception, match="has an account already"):
                auth.first_account(reg, token, "mallory", PASSWORD)
        finally:
            chromium.close()
