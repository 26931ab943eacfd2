"""Every option the app sets survives a reload, a project round trip and a shared link, byte for byte.

The options are not listed here by hand: they are the app's own option definitions (``options._OPTION_CHECKS``
and ``options._READ_CHECKS``, what a link or a project may carry) and, read off the app's source, every name
the pages pass to ``state.set_opt``. Each is given here a value in the form its control writes it; a new option
without one fails :func:`test_each_option_has_a_value_as_its_control_writes_it`.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from tests.helpers.headless import new_app, no_exception, page_path
from treecalc.app import options, projects, state

ROOT = Path(__file__).resolve().parents[2]

#: a survey as a user's GIS export writes it (not the bundled sample)
SURVEY = (
    b"Tree ID,Common Name,DBH,Condition,Street Tree,Proposed Action\n"
    b"101,Red maple,14,Good,No,Remove\n102,Pin oak,18,Fair,Yes,Remove\n"
    b"103,Sugar maple,11,Good,No,Remove\n104,Red maple,9,Poor,No,Retain\n"
)
NAME = "lot 12 trees.csv"

#: the Fund page's schedule once the Board's resolution of 2026-03-02 is entered (pages/fund.py writes it so)
DATED = {
    "basis": "per_tree",
    "fee_per_tree_usd": "1125.00",
    "multiplier": "1",
    "placeholder": False,
    "label": "set by Board resolution of 2026-03-02 (§208-24C)",
    "resolution_date": "2026-03-02",
}

#: each option in the form its control writes it (every key a control can give, sub-keys included)
VALUES = {
    "value_basis": "cumulative:30",
    "replacement_species": "QURU",
    "_last_species": "QURU",
    "replacement_dbh_in": 2.5,
    "replacement_cost_usd": 525.0,
    "replacement_percent": 150.0,
    "replacement_stock": [{"species": "QUAL", "dbh_in": 2.5, "unit_cost_usd": 410.0}],
    "plantable": 0,
    "plantable_area_sqft": 1200.0,
    "continuing_days": 4,
    "violation": True,
    "application_pending": False,
    "clear_cutting": False,
    "fee_schedule": DATED,
    "mortality": 0.045,  # 4.5 % entered on the Permit page, kept as a fraction
    "benefit": {
        "zone": "NoEastXXX",
        "home_price_usd": 450000.0,
        "land_use": "single_family",
        "large_tree_leaf_area_m2": 300.0,
        "prices": {"electricity": 0.21},
    },
    "species_fix": {"3": "ACSA2"},
    "actions": {"104": "remove"},
    "tree_facts": {"101": {"street_tree": True, "condition": "poor"}},
}
READ_VALUES = {
    "column_map": {"Proposed Action": "action"},
    "site": {"prior_removals_12mo": "2", "subdividable": False, "lot_area_acres": 1.2},
}
#: options a control never holds together with another (the Permit page's one species or a stock list; a count
#: of plantable trees or an area): round-tripped through the app in a second session
APART = ("replacement_stock", "plantable_area_sqft")


def _dumps(d) -> str:
    return json.dumps(d, sort_keys=True, ensure_ascii=False)


def _names_set_by_the_pages() -> set[str]:
    """Every option name the app's code passes to ``state.set_opt``: a literal, or a literal given to a function
    of the app that passes its parameter on (the Violations page's three-state radios)."""
    trees = [ast.parse(p.read_text()) for p in sorted((ROOT / "treecalc" / "app").rglob("*.py"))]

    def set_opt_calls(node):
        for n in ast.walk(node):
            if isinstance(n, ast.Call) and getattr(n.func, "attr", getattr(n.func, "id", None)) == "set_opt" and n.args:
                yield n.args[0]

    names, relays = set(), {}
    for tree in trees:
        for arg in set_opt_calls(tree):
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                names.add(arg.value)
        for f in ast.walk(tree):
            if isinstance(f, ast.FunctionDef):
                params = [a.arg for a in f.args.args]
                for arg in set_opt_calls(f):
                    if isinstance(arg, ast.Name) and arg.id in params:
                        relays[f.name] = params.index(arg.id)
    for tree in trees:
        for n in ast.walk(tree):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in relays:
                at = relays[n.func.id]
                if len(n.args) > at and isinstance(n.args[at], ast.Constant):
                    names.add(n.args[at].value)
    return names


NAMES = sorted(options._OPTION_CHECKS)


def test_the_options_are_the_apps_own_and_include_the_fee_schedule_and_mortality():
    assert NAMES and {"fee_schedule", "mortality", "benefit", "tree_facts"} <= set(NAMES)
    set_by_pages = _names_set_by_the_pages()
    # the scan finds them (a fee schedule is no page's control: the register's is charged; one from outside is
    # carried with the options, never charged)
    assert {"mortality", "violation", "clear_cutting"} <= set_by_pages
    # an option a page sets that a reload, a project or a link would leave out ("not understood: mortality")
    assert set_by_pages - set(NAMES) == set()
    assert set(READ_VALUES) == set(options._READ_CHECKS)


def test_each_option_has_a_value_as_its_control_writes_it():
    assert set(VALUES) == set(NAMES)


@pytest.fixture
def reg(tmp_path, monkeypatch):
    from treecalc.register import Register

    url = f"sqlite:///{tmp_path / 'register.db'}"
    monkeypatch.setenv("TREECALC_DB", url)
    return Register(url)


def _through(path: str, opts: dict, read: dict, reg) -> tuple[dict, dict, list[str]]:
    """``opts`` and ``read`` as a reload, a project or a link gives them back to the app, and what it left out."""
    src = state.make_source(NAME, SURVEY)
    if path == "reload":
        q = projects.url_params(src, read, opts, "token")
        back_read, back = json.loads(q.get("read", "{}")), json.loads(q.get("opts", "{}"))
    elif path == "project":
        p = projects.read_project(projects.project_bytes(src, read, opts))
        back_read, back = p.read_opts, p.opts
    else:
        from treecalc.register import links

        token = links.make_link(
            reg, by="ann", kind="view", survey_sha256=reg.put_blob(SURVEY, by="ann"), survey_name=NAME,
            params={"read": read, "opts": opts},
        )  # fmt: skip
        params = json.loads(links.open_link(reg, token).link.params)
        back_read, back = params["read"], params["opts"]
    taken_read, left_read = options.checked(back_read, options._READ_CHECKS)
    taken, left = options.checked(back, options._OPTION_CHECKS)
    return taken, taken_read, left_read + left


@pytest.mark.parametrize("path", ["reload", "project", "link"])
@pytest.mark.parametrize("name", NAMES)
def test_each_option_round_trips_byte_for_byte(name, path, reg):
    opts = {name: VALUES[name]}
    taken, taken_read, left = _through(path, opts, READ_VALUES, reg)
    assert left == []
    assert _dumps(taken) == _dumps(opts)
    assert _dumps(taken_read) == _dumps(READ_VALUES)


# --- through the app itself (AppTest): what the app writes is what a new session takes ----------------------


def _uploaded(opts: dict):
    at = new_app().run()
    at.file_uploader(key="w_upload").set_value((NAME, SURVEY, "text/csv")).run()
    at.session_state[state._READ] = dict(READ_VALUES)
    at.session_state[state._OPTS] = json.loads(json.dumps(opts))
    at.run()
    no_exception(at)
    return at


def _notes(at) -> list[str]:
    return [w.value for w in at.main.warning] + [w.value for w in at.sidebar.warning]


def _held(at) -> tuple[str, str]:
    return _dumps(dict(at.session_state[state._OPTS])), _dumps(dict(at.session_state[state._READ]))


def _reloaded(at):
    fresh = new_app()
    for k, v in dict(at.query_params).items():
        fresh.query_params[k] = v[0] if isinstance(v, list) else v
    return fresh.run()


def _project_opened(at):
    data = projects.project_bytes(
        at.session_state[state._SOURCE], dict(at.session_state[state._READ]), dict(at.session_state[state._OPTS])
    )
    fresh = new_app().run()
    fresh.file_uploader(key="w_project_open").set_value(("lot 12.treecalc.zip", data, "application/zip")).run()
    return fresh


def _link_opened(at):
    import os

    from tests.register.conftest import staff
    from treecalc.register import Register, auth

    # shared by a signed-in staff member (a browser not signed in shares by its own cookie, which AppTest has not);
    # the register may hold accounts already, so the engineer's is made by its first engineer (staff())
    reg = staff(Register(os.environ["TREECALC_DB"]), "eng")
    at.session_state["tc_staff_token"] = auth.sign_in(reg, "eng", "correct horse battery")[0]
    at.run()
    at.button(key="w_share_make").click().run()
    no_exception(at)
    fresh = new_app()
    fresh.query_params["link"] = at.session_state["tc_link_made"]
    return fresh.run()


GROUPS = [
    {k: v for k, v in VALUES.items() if k not in APART},
    {k: VALUES[k] for k in APART},
]


@pytest.mark.parametrize("path", ["reload", "project", "link"])
def test_the_apps_options_survive_a_reload_a_project_and_a_link(path, reg):
    assert set().union(*GROUPS) == set(NAMES)  # every option goes through the app in one of the sessions
    open_ = {"reload": _reloaded, "project": _project_opened, "link": _link_opened}[path]
    for opts in GROUPS:
        at = _uploaded(opts)
        before = _held(at)
        assert before[0] == _dumps(opts)  # the survey page kept them as given
        fresh = open_(at)
        no_exception(fresh)
        assert not any("left out" in n for n in _notes(fresh)), _notes(fresh)
        assert _held(fresh) == before
        assert fresh.session_state[state._SOURCE].data == SURVEY


def test_a_dated_fee_schedule_is_the_fee_after_a_reload(reg):
    # the Board's resolution of 2026-03-02, $1,125.00 a tree, recorded in the register: a reload (a fresh session)
    # charges it; the session's own copy of a schedule (DATED, carried with the options) is never what is charged
    from treecalc.register import fees

    reg.add_user("eng", "engineer", "correct horse battery", by="setup")
    fees.record(reg, by="eng", resolution_date="2026-03-02", fee_per_tree_usd="1125")
    at = _uploaded({"fee_schedule": {**DATED, "fee_per_tree_usd": "0.01"}, "plantable": 0})
    fresh = _reloaded(at)
    fresh.switch_page(page_path("permit")).run()
    no_exception(fresh)
    assert fresh.session_state[state._OPTS]["fee_schedule"]["fee_per_tree_usd"] == "0.01"  # carried as given
    fund = fresh.session_state[state._MEMO_ASSESS][1].fund
    assert (fund.fee_per_tree_usd, fund.label) == (1125.0, "Board resolution of 2026-03-02 (§208-24C)")
    assert fund.trees_in_lieu and fund.fund_in_lieu_usd == fund.trees_in_lieu * 1125.0
    shown = " ".join(m.value for m in fresh.main.markdown) + " ".join(str(m.value) for m in fresh.main.metric)
    assert f"{fund.fund_in_lieu_usd:,.0f}" in shown


def _reload_with(opts: dict):
    """The user's upload reloaded from an address whose options are ``opts`` (edited in the address bar)."""
    at = _uploaded({})
    q = {k: v[0] if isinstance(v, list) else v for k, v in dict(at.query_params).items()}
    fresh = new_app()
    for k, v in {**q, "opts": json.dumps(opts)}.items():
        fresh.query_params[k] = v
    return fresh.run()


def _every_page_answers(at) -> None:
    for page in ("permit", "benefits", "violations", "fund"):
        at.switch_page(page_path(page)).run()
        no_exception(at)
        assert not [e.value for e in at.main.error], (page, [e.value for e in at.main.error])


def test_a_condition_from_the_address_is_refused_and_the_session_goes_on():
    # a condition text no condition class reads, in the address of a reload, stopped the assessment on every
    # page of the session ("The assessment could not be made: unknown condition ['Needs pruning']")
    crafted = {"value_basis": "appraised", "tree_facts": {"101": {"condition": "Needs pruning"}}, "continuing_days": 3}
    fresh = _reload_with(crafted)
    no_exception(fresh)
    said = [w.value for w in fresh.main.warning]
    assert any(
        "tree_facts (tree 101: condition 'Needs pruning' not recognised" in w and "left out" in w for w in said
    ), said
    assert fresh.session_state[state._OPTS] == {"value_basis": "appraised", "continuing_days": 3}
    assert fresh.session_state[state._SOURCE].data == SURVEY
    _every_page_answers(fresh)


def test_a_condition_is_read_as_the_survey_reader_reads_it():
    # "75%" and "excellent-ish" are conditions the reader takes (ISA rating 61-80 %: good; the first word) and the
    # library's appraisal did not ("unknown condition ['75%']" on every page): changed in the app, they are read so
    given = {"value_basis": "appraised", "tree_facts": {"101": {"condition": "75%"}, "103": {"condition": "Very good"}}}
    fresh = _reload_with(given)
    assert not [w.value for w in fresh.main.warning]
    # the tree table shows them as read, and keeps what differs from the file: tree 101 read Good in the file and
    # 75 % is good (no change); tree 103 Good -> "Very good", the reader's excellent
    assert fresh.session_state[state._OPTS]["tree_facts"] == {"103": {"condition": "excellent"}}
    _every_page_answers(fresh)
    trees = fresh.session_state[state._MEMO_ASSESS][1].trees.set_index("tag")
    assert (trees.at["101", "condition"], trees.at["103", "condition"]) == ("good", "excellent")
