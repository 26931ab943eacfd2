"""Shared views kept in the register (AppTest, no browser): a link opens its survey and options; the original
file only when the sharer allowed it; an expired or revoked link says so in the main area and shows no survey."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SURVEY = b"Tag,Species,DBH (in),Action\n7,Red maple,14,remove\n8,Pin oak,22,retain\n"


@pytest.fixture
def reg(tmp_path, monkeypatch):
    from treecalc.register import Register

    url = f"sqlite:///{tmp_path / 'register.db'}"
    monkeypatch.setenv("TREECALC_DB", url)
    return Register(url)


def _app(token):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["link"] = token
    return at.run()


def _link(reg, **kw):
    from treecalc.register import auth

    sha = reg.put_blob(SURVEY, by="ann")
    params = {"read": {}, "opts": {"value_basis": "appraised"}}
    return auth.make_link(reg, by="ann", kind="view", survey_sha256=sha, survey_name="lot 7.csv", params=params, **kw)


def test_a_shared_view_opens_its_survey_and_options_without_the_original_file(reg):
    at = _app(_link(reg))
    assert not at.exception
    assert at.session_state["tc_source"].name == "lot 7.csv"
    assert at.session_state["tc_opts"] == {"value_basis": "appraised"}
    assert at.session_state["tc_link_no_download"] is True  # Save project carries no survey


def test_the_original_file_only_when_the_sharer_allowed_it(reg):
    at = _app(_link(reg, allow_download=True))
    assert not at.exception and at.session_state["tc_link_no_download"] is False


def test_a_revoked_or_expired_link_says_so_in_the_main_area_and_shows_no_survey(reg):
    from sqlalchemy import update

    from treecalc.register import auth
    from treecalc.register import models as m

    revoked = _link(reg)
    auth.revoke_link(reg, revoked, by="ann")
    at = _app(revoked)
    assert not at.exception
    assert any("was revoked" in e.value for e in at.main.error), [e.value for e in at.main.error]
    assert "tc_source" not in at.session_state and at.session_state["tc_no_sample"] is True
    assert at.session_state["tc_opts"] == {"value_basis": "appraised"}  # the link's options are kept
    assert any("No survey loaded: the link's survey is not shown" in c.value for c in at.sidebar.caption)

    expired = _link(reg)
    with reg.engine.begin() as c:
        c.execute(
            update(m.Link)
            .where(m.Link.token_sha256 == auth._sha(expired))
            .values(expires_at="2000-01-01T00:00:00+00:00")
        )
    at = _app(expired)
    assert any("expired on 2000-01-01" in e.value for e in at.main.error)
    assert json.loads(json.dumps(dict(at.session_state["tc_opts"]))) == {"value_basis": "appraised"}


def test_a_random_token_says_it_is_not_known_and_claims_no_restart(reg):
    at = _app("x" * 32)  # a token no one was given
    notes = [e.value for e in at.main.error]
    assert any("not known to this server" in n for n in notes), notes
    assert not any("restart" in n for n in notes)
    assert "tc_source" not in at.session_state


def test_a_session_opened_from_a_link_reloads_from_it_so_a_revocation_holds(reg):
    from treecalc.register import auth

    token = _link(reg)
    at = _app(token)
    q = {k: v[0] if isinstance(v, list) else v for k, v in dict(at.query_params).items()}
    assert q.get("link") == token and "resume" not in q  # no reload token of its own beside the link
    auth.revoke_link(reg, token, by="ann")
    from streamlit.testing.v1 import AppTest

    again = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    for k, v in q.items():
        again.query_params[k] = v
    again.run()
    assert any("was revoked" in e.value for e in again.main.error)
    assert "tc_source" not in again.session_state
