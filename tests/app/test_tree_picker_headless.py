"""The app headless (Streamlit ``AppTest``): what a browser cannot type into a canvas grid
reliably, and the helpers behind the tree picker and the tree table."""

from __future__ import annotations

import io

import pandas as pd

from tests.app.test_companion_pages import _page, _rows
from tests.helpers import app_surveys as surveys


def test_a_payment_row_without_its_amount_is_refused_not_dropped():
    at = _page("treecalc/app/pages/water.py")
    at.session_state["w_water_payments"] = _rows([{"date": "2026-02-20"}])  # the amount not given
    at.run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert any("row 1: a date and no amount" in e for e in errors), errors
    assert any("once every payment row has its date and amount" in w.value for w in at.warning)
    assert "Total due" not in [m.label for m in at.metric]  # no balance that leaves the payment out
    # given its amount, the row is read and the balance is shown
    at.session_state["w_water_payments"] = _rows([{"date": "2026-02-20", "amount_usd": 110.0}])
    at.run()
    assert not at.error and "Total due" in [m.label for m in at.metric]


def test_typed_tags_match_whole_tags_only():
    from treecalc.app.picker import _tags_typed, trees_in_words

    tags = [str(t) for t in range(110, 135)] + ["A 12", "B7"]
    assert _tags_typed("12", tags) == ([], ["12"])  # a part of eleven tags is none of them
    assert _tags_typed("112", tags) == (["112"], [])
    assert _tags_typed("120, 121;122", tags) == (["120", "121", "122"], [])
    assert _tags_typed("A 12", tags) == (["A 12"], [])  # a tag with a space is one tag
    assert _tags_typed("b7", tags) == (["B7"], [])  # a case difference only
    assert trees_in_words(1) == "one tree" and trees_in_words(6) == "six trees" and trees_in_words(25) == "25 trees"


def test_changed_facts_are_listed_and_a_note_suggests_its_flag():
    from treecalc.app import tree_facts
    from treecalc.ingest import read_survey

    sv = read_survey(io.BytesIO(surveys.arborist_25()), filename="field.xlsx")
    assert tree_facts.suggested(sv.trees, None) == [("117", "street_tree", "Street tree – Village ROW")]
    trees, said = tree_facts.apply(sv.trees, {"115": "retain"}, {"117": {"street_tree": True}, "999": {}})
    assert said == [
        "Tree 115: action changed in the app to retain (the survey: remove)",
        "Tree 117: street tree changed in the app to yes (the survey: no)",
    ]
    assert bool(trees.loc[trees["tag"] == "117", "street_tree"].iloc[0])
    assert tree_facts.suggested(trees, {"117": {"street_tree": True}}) == []  # taken: offered no more
    # a value the survey already has is no change
    assert tree_facts.apply(sv.trees, None, {"117": {"landmark": False}})[1] == []
    assert isinstance(trees, pd.DataFrame)


def test_tables_format_numbers_by_the_schema():
    """The app's table formats: DBH to 0.1 in, gallons whole with thousands, a match score as a percent, an
    area to 0.01 sq ft (the §208-6A spacing² of 15 ft is 225.00)."""
    from treecalc.app import views

    df = pd.DataFrame(
        {
            "dbh_in": [12.25],
            "stormwater_gal": [1234.56],
            "species_score": [91.0],
            "area_sqft_per_tree": [225.0],
        }
    )
    fmt = {k: v["type_config"].get("format") for k, v in views.number_config(df).items()}
    assert fmt["DBH (in)"] == "%.1f"
    assert fmt["Stormwater intercepted (gal/yr)"] == "localized"
    assert fmt["Match score (%)"] == "%.0f%%"
    assert fmt["Area per tree (sq ft)"] == "%.2f"
