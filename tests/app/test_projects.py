"""Projects: the project file round trip, its errors, and the URL's query parameters (AppTest)."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

from treecalc.app import options, projects, state  # noqa: E402

SURVEY = (
    b"Tag,Species,DBH (in),Action\n1,Red mapel,12,remove\n2,Pin oak,14,remove\n3,Red maple,8,retain\n"
    b"4,Red maple,9,remove\n5,Red maple,10,remove\n"
)


def test_project_file_round_trip():
    src = state.make_source("lot 7.csv", SURVEY)
    read_opts = {"column_map": {"Action": "action"}, "site": {"subdividable": "yes", "prior_removals_12mo": "2"}}
    opts = {
        "species_fix": {"2": "QURU"},
        "replacement_cost_usd": 525.0,
        "benefit": {"land_use": "single_family"},
        "replacement_stock": [{"species": "ACRU", "dbh_in": 2.0, "unit_cost_usd": 350.0}],
    }
    data = projects.project_bytes(src, read_opts, opts)
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert sorted(z.namelist()) == ["project.json", "survey/lot 7.csv"]
        assert json.loads(z.read("project.json"))["survey"]["sha256"] == src.sha256
    p = projects.read_project(data)
    assert (p.survey_name, p.survey, p.read_opts, p.opts) == ("lot 7.csv", SURVEY, read_opts, opts)


def test_sample_project_keeps_no_copy_of_the_survey_on_open():
    src = state.make_source("sample_survey.xlsx", b"xlsx bytes", is_sample=True)
    p = projects.read_project(projects.project_bytes(src, {}, {"value_basis": "appraised"}))
    assert p.survey is None and p.opts == {"value_basis": "appraised"}


def _zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for k, v in files.items():
            z.writestr(k, v)
    return buf.getvalue()


@pytest.mark.parametrize(
    "blob,message",
    [
        (b"not a zip", "not a treecalc project file"),
        (_zip({"a.txt": b"x"}), "no project.json"),
        (_zip({"project.json": b"{nope"}), "could not be read"),
        (_zip({"project.json": b'{"format": "other"}'}), "not a treecalc project"),
        (_zip({"project.json": b'{"format": "treecalc-project", "version": 99}'}), "newer treecalc"),
        (
            _zip(
                {
                    "project.json": json.dumps(
                        {
                            "format": "treecalc-project",
                            "version": 1,
                            "survey": {"name": "a.csv", "file": "survey/a.csv"},
                        }
                    ).encode()
                }
            ),
            "not in the file",
        ),
        (
            _zip(
                {
                    "project.json": json.dumps(
                        {
                            "format": "treecalc-project",
                            "version": 1,
                            "survey": {"name": "a.csv", "file": "survey/a.csv", "sha256": "0" * 64},
                        }
                    ).encode(),
                    "survey/a.csv": b"Tag\n1\n",
                }
            ),
            "does not match",
        ),
    ],
)
def test_bad_project_files_say_why(blob, message):
    with pytest.raises(projects.ProjectError, match=message):
        projects.read_project(blob)


def test_oversize_project_is_refused_before_unpacking():
    blob = _zip({"project.json": b'{"format": "treecalc-project", "version": 1}', "survey/big.csv": b"0" * (3 * 2**20)})
    with pytest.raises(projects.ProjectError, match="larger than 2 MB"):
        projects.read_project(blob, max_mb=2)


def test_a_link_or_project_cannot_name_a_server_file():
    opts = {"fee_schedule": "/etc/passwd", "value_basis": "annual", "_internal": 1}
    assert options.safe_options(opts) == {"value_basis": "annual"}
    inline = {"fee_schedule": {"basis": "per_tree", "fee_per_tree_usd": 500}}
    assert options.safe_options(inline) == inline


def test_url_params_carry_the_reload_token_and_options_never_the_files_hash():
    src = state.make_source("lot 7.csv", SURVEY)
    q = projects.url_params(src, {"site": {"subdividable": "yes"}}, {"species_fix": {"2": "QURU"}}, "tok")
    assert q == {
        "resume": "tok",
        "read": '{"site":{"subdividable":"yes"}}',
        "opts": '{"species_fix":{"2":"QURU"}}',
    }
    assert src.sha256 not in json.dumps(q)
    sample = state.make_source("s.xlsx", b"x", is_sample=True)
    assert projects.url_params(sample, {}, {}, "tok") == {}


# --- in the app (AppTest) --------------------------------------------------------------------


def _app():
    from streamlit.testing.v1 import AppTest

    return AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)


def test_options_reach_the_url_and_a_new_session_restores_them():
    at = _app().run()
    at.file_uploader(key="w_upload").set_value(("lot 7.csv", SURVEY, "text/csv")).run()
    at.session_state["tc_read_opts"] = {"site": {"prior_removals_12mo": "2"}}
    at.session_state["tc_opts"] = {"species_fix": {"2": "QURU"}}
    at.run()
    assert not at.exception
    q = {k: v[0] if isinstance(v, list) else v for k, v in dict(at.query_params).items()}
    sha = state.make_source("lot 7.csv", SURVEY).sha256
    assert "survey" not in q and sha not in json.dumps(q)  # the address names no file by its hash
    assert len(q["resume"]) >= 24  # a random token (secrets.token_urlsafe(18): 144 bits)
    # a reload is a new session with the same URL
    fresh = _app()
    for k, v in q.items():
        fresh.query_params[k] = v[0] if isinstance(v, list) else v
    fresh.run()
    assert not fresh.exception
    assert fresh.session_state["tc_source"].name == "lot 7.csv"
    assert fresh.session_state["tc_read_opts"] == {"site": {"prior_removals_12mo": "2"}}
    assert fresh.session_state["tc_opts"] == {"species_fix": {"2": "QURU"}}


def test_open_project_in_the_sidebar_restores_survey_and_options():
    data = projects.project_bytes(
        state.make_source("lot 7.csv", SURVEY),
        {"site": {"prior_removals_12mo": "2"}},
        {"species_fix": {"2": "QURU"}, "value_basis": "appraised"},
    )
    at = _app().run()
    at.file_uploader(key="w_project_open").set_value(("lot 7.treecalc.zip", data, "application/zip")).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.session_state["tc_source"].name == "lot 7.csv"
    assert at.session_state["tc_opts"]["species_fix"] == {"2": "QURU"}
    assert at.session_state["tc_read_opts"]["site"] == {"prior_removals_12mo": "2"}
    assert any("Survey: **lot 7.csv**" in c.value for c in at.sidebar.caption)


# --- crafted files and links (review of issue 11) ------------------------------------------------------


def _meta(**kw) -> bytes:
    return json.dumps({"format": "treecalc-project", "version": 1, **kw}).encode()


def _bad_crc_zip() -> bytes:
    """A project whose survey's recorded CRC-32 is wrong (a damaged or hand-made zip)."""
    blob = bytearray(
        _zip(
            {
                "project.json": _meta(survey={"name": "a.csv", "file": "survey/a.csv"}),
                "survey/a.csv": b"Tag,Species,DBH\n1,Red maple,10\n",
            }
        )
    )
    for sig, crc_at in ((b"PK\x03\x04", 14), (b"PK\x01\x02", 16)):  # local header, central directory
        name_at = blob.find(b"survey/a.csv", blob.find(sig))
        blob[blob.rfind(sig, 0, name_at) + crc_at] ^= 0xFF
    return bytes(blob)


@pytest.mark.parametrize(
    "blob,message",
    [
        (_zip({"project.json": _meta(version="abc")}), "version is not a whole number"),
        (_zip({"project.json": _meta(survey=["survey/a.csv"])}), "survey entry is not"),
        (_zip({"project.json": _meta(survey="/etc/passwd")}), "survey entry is not"),
        (
            _zip({"project.json": _meta(survey={"name": {"a": 1}, "file": "survey/a.csv"}), "survey/a.csv": b"x"}),
            "survey entry is not",
        ),
        (_zip({"project.json": b"[" * 100_000 + b"]" * 100_000}), "nested"),
        (_bad_crc_zip(), "damaged"),
    ],
)
def test_crafted_project_files_are_refused_in_plain_words(blob, message):
    # before the review these raised ValueError, AttributeError, RecursionError and zipfile.BadZipFile,
    # which the sidebar (it catches the app's own errors only) showed as a failure, not a message
    with pytest.raises(projects.ProjectError, match=message):
        projects.read_project(blob)


def test_options_from_outside_are_taken_only_in_the_form_their_controls_take():
    good = {
        "replacement_dbh_in": 3.0,
        "continuing_days": 4,
        "violation": True,
        "value_basis": "cumulative:30",
        "benefit": {"home_price_usd": 500_000.0, "prices": {"electricity": 0.2}},
        "replacement_stock": [{"species": "QUAL", "dbh_in": 2.5, "unit_cost_usd": None}],
        "fee_schedule": {"basis": "per_tree", "fee_per_tree_usd": "500.00", "placeholder": False},
        "species_fix": {"4": "ACRU"},
        "actions": {"7": "removed"},
    }
    assert options.checked(good, options._OPTION_CHECKS) == (good, [])
    bad = {
        "replacement_dbh_in": "x",
        "continuing_days": "many",
        "plantable": -5,
        "replacement_percent": "lots",
        "value_basis": "cumulative:abc",
        "benefit": [1, 2],
        "species_fix": [1],
        "actions": "x",
        "replacement_stock": "abc",
        "fee_schedule": {"basis": "gold"},
        "violation": "maybe",
        "sheet": 3,
    }
    taken, left = options.checked(bad, options._OPTION_CHECKS)
    assert taken == {} and [x.split(" (")[0] for x in left] == list(bad)
    # a number beyond its range is left out in the library's words, naming the option
    assert any(
        x.startswith("plantable (plantable trees (plantable) must be a whole number from 0 to 10,000,000") for x in left
    )
    huge = {"continuing_days": 2**53 - 1, "replacement_cost_usd": 1e30, "benefit": {"prices": {"electricity": 1e308}}}
    taken, left = options.checked(huge, options._OPTION_CHECKS)
    assert taken == {}
    assert any("(continuing_days) must be a whole number from 1 to 36,500 days" in x for x in left)
    assert any("(replacement_cost_usd) must be from 0 to 1,000,000,000 USD" in x for x in left)
    assert any("price electricity must be from 0 to 1,000,000 USD per unit" in x for x in left)
    # a server path hidden one level down (assess_kwargs spreads the benefit parameters into assess)
    assert options.safe_options({"benefit": {"fee_schedule": "/etc/passwd"}}) == {}
    read = {
        "column_map": {"Diam": "dbh_in"},
        "site": {"lot_area_acres": "1.2", "village_work": False},
        "max_bytes": 10**12,
        "path_or_buffer": "/etc/passwd",
    }
    assert options.checked(read, options._READ_CHECKS) == (
        {"column_map": {"Diam": "dbh_in"}, "site": {"lot_area_acres": "1.2", "village_work": False}},
        ["max_bytes", "path_or_buffer"],
    )


PAGES = ["survey", "benefits", "map", "permit", "violations", "fund"]


def test_a_link_the_app_wrote_restores_without_a_note():
    # the app's own URL carries its bookkeeping (_last_species: the species carried to a stock list)
    at = _app()
    at.query_params["opts"] = json.dumps(
        {"_last_species": "QUAL", "replacement_species": "QUAL", "continuing_days": 3, "_other": 1}
    )
    at.run()
    notes = [w.value for w in at.sidebar.warning] + [w.value for w in at.main.warning]
    assert not at.exception and not any("left out" in w for w in notes), notes
    assert at.session_state["tc_opts"] == {"_last_species": "QUAL", "replacement_species": "QUAL", "continuing_days": 3}


def test_a_crafted_link_never_stops_a_page():
    """Options of the wrong type or out of range once stopped the page that draws their control
    ("Something went wrong on this page: TypeError ..."), for the whole session; now they are left out
    and the sidebar says which."""
    bad = {
        "replacement_dbh_in": "x",
        "continuing_days": "many",
        "plantable": -5,
        "replacement_percent": "lots",
        "value_basis": "cumulative:abc",
        "benefit": [1, 2],
        "species_fix": [1],
        "actions": "x",
        "fee_schedule": {"basis": "gold"},
        "replacement_cost_usd": [1],
    }
    for page in PAGES:
        at = _app()
        at.query_params["opts"] = json.dumps(bad)
        at.run()
        if page != "survey":
            at.switch_page(f"treecalc/app/pages/{page}.py").run()
        assert not at.exception, page
        errors = [e.value for e in at.error]
        assert not any("went wrong" in e for e in errors), (page, errors)
    assert any("left out" in w.value and "replacement_dbh_in" in w.value for w in _first_run_warnings(bad))


def _first_run_warnings(opts):
    at = _app()
    at.query_params["opts"] = json.dumps(opts)
    return at.run().main.warning  # said in the main area, above the page


def test_a_projects_survey_name_is_a_plain_file_name_shown_as_itself():
    # a crafted name: folders (Save project wrote it back as the member survey/../../x, outside survey/ for
    # an unzip tool) and Markdown (an image the sidebar caption would fetch from another server)
    name = "../../![t](http://198.51.100.7/t.png)lot_1.csv"
    meta = {"format": "treecalc-project", "version": 1, "survey": {"name": name, "file": "survey/a.csv"}}
    p = projects.read_project(_zip({"project.json": json.dumps(meta).encode(), "survey/a.csv": SURVEY}))
    assert p.survey_name == "t.png)lot_1.csv"
    with zipfile.ZipFile(io.BytesIO(projects.project_bytes(state.make_source(p.survey_name, SURVEY), {}, {}))) as z:
        assert all(n == "project.json" or n.startswith("survey/") and ".." not in n for n in z.namelist())
    at = _app().run()
    at.file_uploader(key="w_project_open").set_value(
        (
            "x.treecalc.zip",
            projects.project_bytes(state.make_source("![t](t.png)*lot*.csv", SURVEY), {}, {}),
            "application/zip",
        )
    ).run()
    assert not at.exception
    shown = [c.value for c in at.sidebar.caption if c.value.startswith("Survey:")]
    assert shown == [r"Survey: **\!\[t\]\(t.png\)\*lot\*.csv** (uploaded)"]


@pytest.mark.parametrize(
    "key,value",
    [
        ("replacement_percent", 0),  # greater than 0 (percent's strict low)
        ("plantable", 1.5),  # a whole number of trees
        ("plantable_area_sqft", -1),
        ("continuing_days", 0),  # 1 to 36,500 days
        ("replacement_cost_usd", 12.345),  # a fraction of a cent
        ("replacement_stock", [{"species": "Red oak", "dbh_in": 2, "unit_cost_usd": 1e12}]),  # over $1 billion
    ],
)
def test_an_option_from_a_link_is_refused_in_the_words_of_the_librarys_assess_options(key, value):
    # one check: the app takes an assessment option from a link or a project only as AssessOptions.validated
    # takes it (the stock's cost was refused by the app's own check as "replacement_stock unit_cost_usd")
    from treecalc.money import OutOfRange
    from treecalc.rules.context import AssessOptions

    with pytest.raises(OutOfRange) as refused:
        AssessOptions(**{key: value}).validated()
    taken, left = options.checked({key: value}, options._OPTION_CHECKS)
    assert taken == {}
    assert left == [f"{key} ({str(refused.value)[:300]})"]
