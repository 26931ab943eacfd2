"""The Violations page's "In effect" banner says what the offences rest on: definite, conditional or none.

A lot whose every offence rests on an assumed fact is no lot with "no violation": the banner names the
conditional offences, how many trees, on which facts, and their maxima on those facts. A lot with a
definite offence and a lot with none keep their banners.

The surveys (three trees of a lot, none the sample's):
* V1 red maple 10 in, removed: over 8 and up to 12 in, §208-29B(2), up to $1,500; §208-29A up to $250.
* V2 red oak 14 in, removed: over 12 in, §208-29B(3), up to $3,000; §208-29A up to $250.
* V3 sugar maple 12 in, retained: no offence.
Two offences, not more than three trees, so nothing doubles (§208-29B(7)):
civil 1,500 + 3,000 = $4,500; criminal 250 + 250 = $500.

Given as a CSV with no site facts, whether V1 and V2 needed a permit rests on the §208-19A(2) parcel facts
(residence, subdividable, site plan), which were not given: both offences are conditional. Given with a
Site sheet (no residence, not subdividable, 2 acres) the permit is needed (§208-19A(2)): both definite.
"""

from pathlib import Path

import pandas as pd
from streamlit.testing.v1 import AppTest

from tests.helpers.app_surveys import SITE, _book
from treecalc.app import state

ROOT = Path(__file__).resolve().parents[2]

TREES = pd.DataFrame(
    {
        "Tag": ["V1", "V2", "V3"],
        "Species": ["Red maple", "Red oak", "Sugar maple"],
        "DBH (in)": [10.0, 14.0, 12.0],
        "Action": ["removed", "removed", "retain"],
    }
)


def _banner(name: str, data: bytes) -> str:
    """The "In effect" banner of the Violations page for the survey ``data``."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state[state._SOURCE] = state.make_source(name, data)
    at.run()
    at.switch_page("treecalc/app/pages/violations.py").run()
    assert not at.exception, [e.value for e in at.exception]
    said = [e.value for e in [*at.info, *at.warning, *at.error, *at.success] if e.value.startswith("In effect")]
    assert len(said) == 1, said
    return str(said[0])


def test_conditional_offences_only_are_named_not_no_violation():
    text = _banner("lot 7.csv", TREES.to_csv(index=False).encode())
    assert "no violation" not in text.lower(), text
    assert "conditional" in text.lower(), text
    assert "two trees" in text, text  # V1 and V2
    # the facts they rest on, in the app's words for the §208-19A(2) parcel facts
    assert "§208-19A(2)" in text, text
    assert "residence" in text and "subdivid" in text, text
    assert "$4,500" in text and "$500" in text, text  # the conditional maxima worked above
    assert "§208-22F" in text, text  # what would apply if established


def test_definite_offences_keep_their_banner():
    text = _banner("lot 7.xlsx", _book(TREES, SITE))
    assert "**a violation**" in text, text
    assert "two trees harmed without a required permit" in text, text
    assert "conditional" not in text.lower(), text


def test_no_offence_keeps_its_banner():
    kept = TREES.assign(Action="retain")
    text = _banner("lot 8.csv", kept.to_csv(index=False).encode())
    assert "**no violation**" in text, text
    assert "no tree harmed" in text, text


def test_a_mixed_lot_is_a_violation_with_its_conditional_offences_counted():
    # V1 a street tree: its removal is an offence on the facts given (§208-5D), §208-29B(4) up to $4,000;
    # V2 still rests on the §208-19A(2) parcel facts: one definite, one conditional
    mixed = TREES.assign(**{"Street tree": ["yes", "", ""]})
    text = _banner("lot 9.csv", mixed.to_csv(index=False).encode())
    assert "**a violation**" in text, text
    assert "two trees harmed without a required permit (§208-29), of which 1 conditional" in text, text
