"""The app: options from a link refused in the library's words, uploads that belong to their session, reads held to
the server's memory budget, and a read error said once."""

from __future__ import annotations

import io
import json
import threading
import time
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

import streamlit as st  # noqa: E402

from treecalc.app import projects, state  # noqa: E402
from treecalc.ingest.limits import MemoryBudget  # noqa: E402

SURVEY = b"Tag,Species,DBH (in),Action\n1,Red maple,12,remove\n2,Pin oak,14,remove\n3,Red maple,8,retain\n"


def _app():
    from streamlit.testing.v1 import AppTest

    return AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)


ABSURD = [
    ({"continuing_days": 2**53 - 1}, "(continuing_days) must be a whole number from 1 to 36,500 days"),
    ({"replacement_cost_usd": 1e12}, "(replacement_cost_usd) must be from 0 to 1,000,000,000 USD"),
    ({"benefit": {"prices": {"electricity": 1e308}}}, "price electricity must be from 0 to 1,000,000 USD per unit"),
    ({"fee_schedule": {"basis": "value", "multiplier": 1e15}}, "fee schedule multiplier must be from 0 to 100 times"),
    ({"fee_schedule": {"basis": "per_tree", "fee_per_tree_usd": "1e30"}}, "fee schedule fee_per_tree_usd must be"),
]


@pytest.mark.parametrize("opts, words", ABSURD)
@pytest.mark.parametrize("page", ["violations", "fund"])
def test_a_link_with_an_absurd_option_says_so_and_the_page_works(opts, words, page):
    at = _app()
    at.query_params["opts"] = json.dumps(opts)
    at.run()
    main = [w.value for w in at.main.warning]
    assert any(words in w for w in main), main  # in the main area, in the library's words
    at.switch_page(f"treecalc/app/pages/{page}.py").run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert not any("went wrong" in e or "InvalidOperation" in e for e in errors), errors
    assert len(at.metric) > 0  # the page goes on with its figures


def test_two_users_uploading_the_same_bytes_each_keep_their_own_name():
    # user X uploads the client's survey as Smith_12_Elm_St_client_survey.xlsx; user Y the same bytes as mine.csv:
    # Y's project never carries X's file name (the project file was cached by the bytes' hash alone)
    x = state.make_source("Smith_12_Elm_St_client_survey.csv", SURVEY)
    y = state.make_source("mine.csv", SURVEY)
    assert x.sha256 == y.sha256
    names = []
    for src in (x, y):
        st.session_state.clear()  # a new session
        with zipfile.ZipFile(io.BytesIO(projects.project_file(src))) as z:
            names.append(json.loads(z.read("project.json"))["survey"]["name"])
    assert names == ["Smith_12_Elm_St_client_survey.csv", "mine.csv"]


def test_an_upload_is_cached_for_its_own_session_only():
    # the same bytes in another session are read again: a cached answer would carry the first user's name, and its
    # speed would tell the second that the server holds the file
    src = state.make_source("a.csv", SURVEY)
    st.session_state.clear()
    first = state.cache_key(src)
    assert state.cache_key(src) == first  # the same session: the same key
    st.session_state.clear()
    assert state.cache_key(src) != first and src.sha256 in first
    sample = state.make_source("sample_survey.xlsx", b"x", is_sample=True)
    assert state.cache_key(sample) == sample.sha256  # the bundled sample is everyone's


def test_the_permit_pages_plan_and_keep_limits_read_an_upload_under_its_session_only(monkeypatch):
    # the Permit page's "which removals can be kept" and the plan were cached on the bytes' hash alone: another
    # session uploading the same bytes got them with no read of its own (its speed told it the server held the
    # file), and the upload was read a second time under that other key. Every read of an upload is its session's.
    keys: list[str] = []
    real = state._read_survey

    def seen(sha256, *a, **k):
        keys.append(sha256)
        return real(sha256, *a, **k)

    monkeypatch.setattr(state, "_read_survey", seen)
    data = b"Tag,Species,DBH (in),Action\n1,Red maple,12,remove\n2,Pin oak,14,remove\n3,Acer saccharum,9,remove\n"
    sha = state.make_source("x.csv", data).sha256
    for name in ("Smith_client.csv", "mine.csv"):  # two sessions, the same bytes
        at = _app().run()
        at.file_uploader(key="w_upload").set_value((name, data, "text/csv")).run()
        at.switch_page("treecalc/app/pages/permit.py").run()
        assert not at.exception
    upload = [k for k in keys if sha in k]
    assert upload and all(k != sha and k.endswith(f":{sha}") for k in upload), upload
    assert len({k.split(":")[0] for k in upload}) == 2  # each session its own key


def test_a_read_waits_for_the_memory_budget_and_says_queued(monkeypatch):
    budget = MemoryBudget(4)
    monkeypatch.setattr(state, "read_budget", lambda: budget)
    said: list[str] = []
    out: list = []
    hold = budget.reserve(4)
    hold.__enter__()  # another user's read holds the whole budget
    key = f"test-{time.monotonic_ns()}"

    def read() -> None:
        out.append(state._read_survey(key, "s.csv", "{}", SURVEY, lambda f, m: said.append(m)))

    t = threading.Thread(target=read)
    t.start()
    deadline = time.monotonic() + 20
    while not any(m.startswith("queued") for m in said) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert any(m.startswith("queued") for m in said), said
    assert not out  # still waiting: the budget is held
    hold.__exit__(None, None, None)
    t.join(60)
    assert len(out[0].trees) == 3 and budget.used_gb == 0


def test_a_read_error_is_said_once(monkeypatch):
    from treecalc.ingest import SurveyError

    def fail(*a, **k):
        raise SurveyError("big.csv could not be read: it took longer than 300 s (the reader was stopped)")

    monkeypatch.setattr(state, "_read_survey", fail)
    st.session_state.clear()
    st.session_state[state._SOURCE] = state.make_source("big.csv", SURVEY)
    with pytest.raises(state.AppError) as e:
        state.survey()
    assert str(e.value).count("could not be read") == 1 and str(e.value).startswith("big.csv could not be read")


def test_a_link_to_a_survey_the_server_never_held_does_not_claim_a_restart():
    at = _app()
    at.query_params["resume"] = "0" * 24  # a token no session was given
    at.run()
    notes = [w.value for w in [*at.main.warning, *at.main.error]]  # said in the main area, as a warning or error
    assert any("not known to this server, or it has expired" in n for n in notes), notes
    assert not any("was restarted" in n for n in notes)


@pytest.mark.parametrize("page", ["survey", "benefits", "permit", "violations", "fund", "water", "excavation"])
def test_every_number_input_carries_a_maximum(page):
    # the app's number inputs had no maximum: a unit cost of 1e12 or days of 2**53 - 1 could be typed in
    at = _app().run()
    at.switch_page(f"treecalc/app/pages/{page}.py").run()
    assert not at.exception
    open_ended = [(n.label, n.max) for n in at.number_input if n.max is None or not n.max < 1e13]
    assert open_ended == [], open_ended
