"""The app reads a survey in its climate zone, as ``treecalc assess`` does (Streamlit AppTest): a Charlotte
survey's crape myrtles (Lagerstroemia indica, listed in PiedmtCLT only) are read and valued, not rejected.

The zone is the one the coordinates, the Site sheet (climate_zone) or the Benefits page give.
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers.headless import new_app, no_exception
from treecalc.app import state

# two crape myrtles and a red maple on a Charlotte street, placed by their coordinates
PLACED = (
    b"Tree,Species,DBH (in),Latitude,Longitude\n"
    b"1,Lagerstroemia indica,6,35.2271,-80.8431\n"
    b"2,Crape myrtle,4,35.2280,-80.8420\n"
    b"3,Acer rubrum,12,35.2265,-80.8440\n"
)
# the same trees with no coordinates: the zone comes from the Site sheet or the Benefits page
UNPLACED = b"Tree,Species,DBH (in)\n1,Lagerstroemia indica,6\n2,Crape myrtle,4\n3,Acer rubrum,12\n"


def _app(data: bytes, page: str, read: dict | None = None, benefit: dict | None = None) -> AppTest:
    at = new_app()
    at.session_state["tc_source"] = state.make_source("charlotte street.csv", data)
    at.session_state["tc_read_opts"] = read or {}
    if benefit:
        at.session_state["tc_opts"] = {"benefit": benefit}
    at.run()
    at.switch_page(page).run()
    no_exception(at)
    return at


def _text(at: AppTest) -> str:
    return "\n".join(str(x.value) for x in [*at.caption, *at.markdown, *at.error, *at.warning, *at.info])


def _metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


@pytest.mark.parametrize(
    ("data", "read", "benefit"),
    [
        (PLACED, None, None),  # the coordinates place it
        (UNPLACED, {"site": {"climate_zone": "PiedmtCLT"}}, None),  # the site fact says it
        (UNPLACED, None, {"zone": "PiedmtCLT"}),  # the Benefits page's control chooses it
    ],
)
def test_the_crape_myrtles_are_read_on_the_survey_page_and_the_zone_is_shown(data, read, benefit):
    at = _app(data, "treecalc/app/pages/survey.py", read, benefit)
    m = _metrics(at)
    assert m["Trees"] == "3" and m["Rejected rows"] == "0", m
    assert "(PiedmtCLT)" in _text(at)


def test_the_crape_myrtles_are_valued_on_the_benefits_page_from_the_piedmont_tables():
    at = _app(PLACED, "treecalc/app/pages/benefits.py")
    # all three trees valued (before, the two crape myrtles were rejected and the caption said 1 tree),
    # in the Piedmont's tables
    assert "3 trees; annual benefits (i-Tree Streets, " in _text(at)
    assert ", PiedmtCLT)" in _text(at)


def test_in_the_northeast_they_stay_rejected():
    at = _app(UNPLACED, "treecalc/app/pages/survey.py")
    m = _metrics(at)
    assert m["Trees"] == "1" and m["Rejected rows"] == "2", m
