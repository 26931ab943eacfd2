"""A reload keeps one's own work without an address anyone could make: the upload is kept under a random token
(never the file's hash), for the browser that uploaded it only, for a while (TREECALC_RESUME_HOURS); an address
by a file's hash opens nothing and answers alike whether or not the server holds the file (AppTest)."""

from __future__ import annotations

import json
from pathlib import Path

from treecalc.app import projects, state

ROOT = Path(__file__).resolve().parents[2]

SURVEY = b"Tag,Species,DBH (in),Action\n1,Red maple,12,remove\n2,Pin oak,14,remove\n3,Red maple,8,retain\n"


def _app():
    from streamlit.testing.v1 import AppTest

    return AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)


def _uploaded(name: str = "Smith 12 Elm St.csv"):
    at = _app().run()
    at.file_uploader(key="w_upload").set_value((name, SURVEY, "text/csv")).run()
    assert not at.exception
    return at, {k: v[0] if isinstance(v, list) else v for k, v in dict(at.query_params).items()}


def _reload(q: dict[str, str]):
    fresh = _app()
    for k, v in q.items():
        fresh.query_params[k] = v
    return fresh.run()


def _notes(at) -> list[str]:
    return [w.value for w in [*at.main.warning, *at.main.error]]


def test_a_reload_in_the_same_browser_restores_the_upload_by_a_random_token(monkeypatch):
    monkeypatch.setattr(projects, "browser_key", lambda: "browser A")
    at, q = _uploaded()
    assert "survey" not in q and state.make_source("x", SURVEY).sha256 not in json.dumps(q)
    fresh = _reload(q)
    assert not fresh.exception
    assert fresh.session_state["tc_source"].name == "Smith 12 Elm St.csv"
    assert dict(fresh.query_params)["resume"] in (q["resume"], [q["resume"]])  # the same address reloads again


def test_the_reload_address_does_not_open_in_another_browser(monkeypatch):
    monkeypatch.setattr(projects, "browser_key", lambda: "browser A")
    _, q = _uploaded()
    monkeypatch.setattr(projects, "browser_key", lambda: "browser B")  # the address pasted elsewhere
    other = _reload(q)
    assert not other.exception
    assert "tc_source" not in other.session_state  # neither the survey nor its name
    assert any("another browser" in n and "Share this view" in n for n in _notes(other)), _notes(other)
    shown = [e.value for e in [*other.sidebar.caption, *other.main.markdown, *other.main.caption]]
    assert not any("Smith" in str(v) for v in shown), shown


def test_a_reload_token_expires(monkeypatch):
    monkeypatch.setattr(projects, "browser_key", lambda: "browser A")
    _, q = _uploaded()
    files, _lock = projects._store()
    files[q["resume"]].until = 0.0  # its time is up
    late = _reload(q)
    assert "tc_source" not in late.session_state
    assert any("not known to this server, or it has expired" in n for n in _notes(late)), _notes(late)
    assert q["resume"] not in files  # forgotten, not only refused


def test_a_new_upload_forgets_the_one_kept_before(monkeypatch):
    monkeypatch.setattr(projects, "browser_key", lambda: "browser A")
    at, q = _uploaded()
    at.file_uploader(key="w_upload").set_value(("other.csv", SURVEY + b"4,Pin oak,9,retain\n", "text/csv")).run()
    files, _lock = projects._store()
    assert q["resume"] not in files
    assert dict(at.query_params)["resume"] not in (q["resume"], [q["resume"]])


def test_an_address_by_a_files_hash_opens_nothing_and_answers_alike_whether_or_not_it_is_held(monkeypatch):
    monkeypatch.setattr(projects, "browser_key", lambda: "browser A")
    _uploaded()  # the server now holds SURVEY
    held = _reload({"survey": state.make_source("x", SURVEY).sha256})
    never = _reload({"survey": "0" * 64})
    for at in (held, never):
        assert not at.exception and "tc_source" not in at.session_state
        assert any("no longer opens" in n for n in _notes(at)), _notes(at)
        assert not any("was restarted" in n for n in _notes(at))
    assert _notes(held) == _notes(never)  # no answer tells a copy's holder that the server has the file
