"""The app's Violations page shows a conditional offence's §208-22F replacement apart, never as required.

One 10 in red maple removed, no site facts: its offence rests on the §208-19A(2) parcel facts (not given).
§208-22F would require 120% of $113.69/yr = 136.428 -> $136.43, ACRU 2 in stock at $64.68/yr:
136.43 / 64.68 = 2.11 -> 3 trees (tests/rules/test_croton_22f_conditional.py works the same figures).
"""

from pathlib import Path

from streamlit.testing.v1 import AppTest

from treecalc.app import state

ROOT = Path(__file__).resolve().parents[2]


def test_violations_page_says_the_conditional_replacement_apart():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state[state._SOURCE] = state.make_source(
        "one maple.csv", b"Tag,Species,DBH (in),Action\n1,Red maple,10,removed\n"
    )
    at.run()
    at.switch_page("treecalc/app/pages/violations.py").run()
    assert not at.exception, [e.value for e in at.exception]
    said = [c.value for c in at.caption if c.value.startswith("§208-22F:")]
    assert len(said) == 1 and said[0].startswith("§208-22F: 3 trees (or $") and "would be required if" in said[0]
    at.switch_page("treecalc/app/pages/permit.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert {m.label: m.value for m in at.metric}["Replacement required (§208-22)"] == "No"
