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
    from treecalc.register import links

    sha = reg.put_blob(SURVEY, by="ann")
    params = {"read": {}, "opts": {"value_basis": "appraised"}}
    return links.make_link(reg, by="ann", kind="view", survey_sha256=sha, survey_name="lot 7.csv", params=params, **kw)


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

    from treecalc.register import auth, links
    from treecalc.register import models as m

    revoked = _link(reg)
    links.revoke_link(reg, revoked, by="ann")
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
    from treecalc.register import links

    token = _link(reg)
    at = _app(token)
    q = {k: v[0] if isinstance(v, list) else v for k, v in dict(at.query_params).items()}
    assert q.get("link") == token and "resume" not in q  # no reload token of its own beside the link
    links.revoke_link(reg, token, by="ann")
    from streamlit.testing.v1 import AppTest

    again = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    for k, v in q.items():
        again.query_params[k] = v
    again.run()
    assert any("was revoked" in e.value for e in again.main.error)
    assert "tc_source" not in again.session_state


def _q(at):
    return {k: v[0] if isinstance(v, list) else v for k, v in dict(at.query_params).items()}


def test_a_link_session_checks_its_link_on_every_run_and_loses_the_survey_when_revoked(reg):
    from treecalc.register import links

    token = _link(reg)
    at = _app(token)
    assert at.session_state["tc_source"].name == "lot 7.csv"
    links.revoke_link(reg, token, by="ann")
    at.run()  # the same session's next run (a click, another page): the link is opened again
    assert any("was revoked" in e.value for e in at.main.error), [e.value for e in at.main.error]
    assert "tc_source" not in at.session_state and at.session_state["tc_no_sample"] is True
    assert not any("lot 7" in str(c.value) for c in at.sidebar.caption)


def test_a_link_session_keeps_its_link_in_the_address_and_never_gets_a_reload_token(reg):
    token = _link(reg)
    at = _app(token)
    # another page of the app drops the address's query; the next run puts the link back, never a resume token
    for k in list(at.query_params):
        del at.query_params[k]
    at.run()
    q = _q(at)
    assert q.get("link") == token and "resume" not in q, q
    assert at.session_state["tc_source"].name == "lot 7.csv"


def _signed_in(reg, at, name="eng", role="engineer"):
    from treecalc.register import auth

    reg.add_user(name, role, "correct horse battery", by="setup")
    at.session_state["tc_staff_token"] = auth.sign_in(reg, name, "correct horse battery")[0]
    return at


def test_a_holder_not_signed_in_cannot_share_the_links_survey_again(reg):
    token = _link(reg)
    at = _app(token)
    said = " ".join(str(c.value) for c in at.sidebar.caption)
    assert "opened from a link" in said and "signed-in staff member" in said
    assert not [b for b in at.sidebar.button if b.key == "w_share_make"]


def test_a_signed_in_holder_of_a_link_without_the_file_cannot_share_it_with_the_file_and_it_dies_with_the_link(reg):
    from streamlit.testing.v1 import AppTest

    from treecalc.register import links

    token = _link(reg, allow_download=False)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["link"] = token
    _signed_in(reg, at).run()
    box = at.sidebar.checkbox(key="w_share_download")
    assert box.disabled
    at.session_state["w_share_download"] = True  # the box's state forged anyway: grants nothing
    at.sidebar.button(key="w_share_make").click().run()
    made = at.session_state["tc_link_made"]
    got = links.open_link(reg, made).link
    assert got is not None and not got.allow_download and got.parent_sha256 == links._sha(token)
    links.revoke_link(reg, token, by="ann")
    assert "made from another link" in links.open_link(reg, made).why or "revoked" in links.open_link(reg, made).why


def test_the_share_panel_says_what_the_holder_sees_and_how_long_the_survey_is_kept(reg):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    said = " ".join(str(c.value) for c in at.sidebar.caption)
    assert "Whoever holds the link sees the bundled sample" in said and "for 7 days" in said
    assert "Not signed in" in said and "apart from the Village's audited record" in said
    # an upload of one's own: what the register keeps, and until when
    from treecalc.app import state

    at.session_state["tc_source"] = state.make_source("lot 7.csv", SURVEY)
    at.run()
    said = " ".join(str(c.value) for c in at.sidebar.caption)
    assert "sees the survey lot 7.csv" in said and "without the original file" in said
    assert "kept in the register until the link expires or is revoked" in said and "unless a case holds it" in said


def test_a_signed_in_user_sees_the_links_they_made_and_revokes_one(reg):
    from streamlit.testing.v1 import AppTest

    from treecalc.register import links

    at = _signed_in(reg, AppTest.from_file(str(ROOT / "app.py"), default_timeout=120))
    cid = reg.new_case(by="eng", title="12 Elm St", kind="permit", survey=("lot 7.csv", SURVEY))
    token = links.make_link(reg, by="eng", kind="case", case_id=cid, days=14)
    links.open_link(reg, token, count=True)
    at.run()
    frames = [d.value for d in at.sidebar.dataframe]
    assert frames, "no list of links"
    table = frames[0]
    assert list(table["kind"]) == ["applicant's link to a case"] and list(table["case"]) == [cid]
    assert list(table["opened"]) == [1] and {"created", "expires"} <= set(table.columns)
    at.sidebar.button(key="w_links_revoke").click().run()
    assert "revoked" in links.open_link(reg, token).why


def test_an_applicants_link_pasted_on_the_root_opens_the_case(reg):
    from streamlit.testing.v1 import AppTest

    from tests.register.conftest import staff
    from treecalc.register import links

    staff(reg, "eng")  # every write is an account's: the engineer opens the case and makes its link
    cid = reg.new_case(by="eng", title="12 Elm St", kind="permit", survey=("lot 7.csv", SURVEY))
    token = links.make_link(reg, by="eng", kind="case", case_id=cid, days=14)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["case"] = token
    at.run()
    assert not at.exception
    heads = [h.value for h in at.main.subheader]
    assert any(f"Case {cid}: 12 Elm St" in h for h in heads), heads


def test_a_view_shared_from_a_page_opens_on_that_page_and_says_it_is_a_shared_view(reg):
    """Shared from the Permit page, the link's address is that page's and its view opens there (the bare address
    too, as the link keeps the page), saying "Shared view of lot 7.csv", never "(uploaded)"."""
    from streamlit.testing.v1 import AppTest

    from treecalc.app import state
    from treecalc.register import links

    at = _signed_in(reg, AppTest.from_file(str(ROOT / "app.py"), default_timeout=120))
    at.session_state["tc_source"] = state.make_source("lot 7.csv", SURVEY)
    at.run()
    at.switch_page("treecalc/app/pages/permit.py").run()
    at.sidebar.button(key="w_share_make").click().run()
    assert not at.exception, [e.value for e in at.exception]
    made = at.session_state["tc_link_made"]
    (code,) = [c.value for c in at.sidebar.code]
    assert code.endswith(f"/permit?link={made}"), code
    assert links.params_of(reg, made)["page"] == "permit"

    opened = _app(made)  # the bare address ?link=TOKEN: the link knows its page
    assert not opened.exception, [e.value for e in opened.exception]
    assert [t.value for t in opened.main.title] == ["Permit & replacement"]
    said = [str(c.value) for c in opened.sidebar.caption]
    assert "Shared view of **lot 7.csv**" in said, said
    assert not any("(uploaded)" in c for c in said)
