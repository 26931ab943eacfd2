"""The app (Streamlit AppTest) on a survey of which no tree could be read, and on one whose two columns could each
be the action: an error in the main area and no figure, no "Next step"; for the two columns, a choice that reads
the survey again with the one chosen."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.helpers.headless import new_app, no_exception, page_path
from treecalc.app import state

# three rows, none with a DBH that is a number: every row rejected
UNREADABLE = b"Tag,Species,DBH,Action\n1,Red maple,ten,Remove\n2,Red maple,?,Remove\n3,Red maple,n/a,Remove\n"
# the arborist's Action keeps both trees, the Recommendation column removes the second
TWO_ACTIONS = b"Tag,Species,DBH,Action,Recommendation\n1,Red maple,10,Retain,Retain\n2,Red maple,11,Retain,Remove\n"


def _app(name: str, data: bytes, page: str) -> AppTest:
    at = new_app()
    at.session_state["tc_source"] = state.make_source(name, data)
    at.session_state["tc_read_opts"] = {}
    at.run()
    at.switch_page(page_path(page)).run()
    no_exception(at)
    return at


def _errors(at: AppTest) -> str:
    return "\n".join(str(e.value) for e in at.error)


def _markdown(at: AppTest) -> str:
    return "\n".join(str(m.value) for m in at.markdown)


def test_the_survey_page_says_no_tree_was_read_and_offers_no_next_step():
    at = _app("unreadable.csv", UNREADABLE, "survey")
    assert "No tree could be read from unreadable.csv: 3 rows rejected, first: row 2" in _errors(at), _errors(at)
    assert "Next step." not in _markdown(at)
    m = {x.label: x.value for x in at.metric}
    assert m["Trees"] == "0" and m["Rejected rows"] == "3", m  # what was read is still shown: why, row by row


def test_the_permit_page_shows_the_error_and_no_figure():
    # before: "Tree removal permit required: no" of trees never read
    at = _app("unreadable.csv", UNREADABLE, "permit")
    assert "No tree could be read from unreadable.csv" in _errors(at), _errors(at)
    assert not at.metric, [(x.label, x.value) for x in at.metric]


def test_two_action_columns_are_asked_about_before_any_figure():
    at = _app("two actions.csv", TWO_ACTIONS, "permit")
    assert "'Action' and 'Recommendation' could each be the trees' action" in _errors(at), _errors(at)
    assert not at.metric, [(x.label, x.value) for x in at.metric]
    radio = at.radio(key="w_action_column")
    assert list(radio.options) == ["Action", "Recommendation"]
    radio.set_value("Recommendation").run()
    at.button(key="w_action_apply").click().run()
    no_exception(at)
    assert at.session_state["tc_read_opts"]["column_map"] == {"Recommendation": "action"}
    assert not at.error, _errors(at)
    assert at.metric  # the figures, now the user has said which column is the action
