"""The app says each tree's climate zone when a survey's trees lie in two (Streamlit AppTest): red maples of
15 in north of Philadelphia (Northeast, 40.60 and 40.65 N) and in it (Piedmont, "South", 40.00 N), on the
meridian 75.16 W. The Benefits page values each in its own zone: by hand (tests/models/test_zone_per_tree.py)
the Piedmont maple's stormwater is 13.19 m3 x 264.172 x $0.0099 = $34.50, the Northeast's 6.66 m3 x 264.172 x
$0.008 = $14.08; the page's stormwater total is then 2 x $14.08 + $34.50 = $62.66.
"""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from treecalc.app import state

ROOT = Path(__file__).resolve().parents[2]

SURVEY = (
    b"Tag,Species,DBH (in),Latitude,Longitude\n"
    b"N1,Acer rubrum,15,40.60,-75.16\n"
    b"P1,Acer rubrum,15,40.00,-75.16\n"
    b"N3,Acer rubrum,15,40.65,-75.16\n"
)


def test_the_benefits_page_values_each_tree_in_its_own_zone_and_the_survey_page_counts_them():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["tc_source"] = state.make_source("bucks and philadelphia.csv", SURVEY)
    at.session_state["tc_read_opts"] = {}
    at.run()
    at.switch_page("treecalc/app/pages/survey.py").run()
    assert not at.exception, [e.value for e in at.exception]
    text = "\n".join(str(c.value) for c in at.caption)
    assert "climate zones, each tree its own: Northeast (NoEastXXX) 2, South (PiedmtCLT) 1" in text, text
    at.switch_page("treecalc/app/pages/benefits.py").run()
    assert not at.exception, [e.value for e in at.exception]
    text = "\n".join(str(c.value) for c in at.caption)
    assert "each tree in its own climate zone: 2 in Northeast (NoEastXXX), 1 in South (PiedmtCLT)" in text, text
    shown = "\n".join(f"{m.label}: {m.value}" for m in at.metric) + "\n" + "\n".join(str(x.value) for x in at.markdown)
    assert "Stormwater (USD/yr): $62.66" in shown, shown
