"""The fee schedule's appraisal_edition: the 10th edition's trunk formula technique reaches the appraised
basis and the edition is named in what the assessment says."""

import pytest

from tests.helpers.rules import make_trees
from treecalc.assessment import assess  # noqa: E402
from treecalc.rules.croton_on_hudson.schedule import load_fee_schedule  # noqa: E402


def _survey(n=3):
    from types import SimpleNamespace

    import pandas as pd

    rows = [{"species_code": "ACRU", "dbh_in": 12.0, "action": "remove", "condition": "good"}] * n
    return SimpleNamespace(
        trees=make_trees(rows),
        rejected=pd.DataFrame(),
        site={"subdividable": True},
        site_assumptions=[],
        warnings=[],
        rows_read=n,
        source={},
    )


SCHEDULE = {"basis": "per_tree", "fee_per_tree_usd": "450", "appraisal_edition": 10}


def test_tenth_edition_appraised_basis_by_hand():
    # unit cost $50/sq in (a nursery quote), functional limitations 90%:
    # TA = pi x 6^2 = 113.09734 sq in; 50 x 113.09734 = 5,654.867; x 80% (good) = 4,523.894; x 90% = 4,071.504
    # -> $4,071.50 a tree; three removed: $12,214.50
    fs = {**SCHEDULE, "appraisal_unit_cost_usd_per_sqin": "50", "appraisal_functional_pct": "90"}
    a = assess(_survey(), value_basis="appraised", fee_schedule=fs)
    assert list(a.trees["value_usd"]) == [4071.50] * 3
    assert a.replacement.removed_value_usd == pytest.approx(12214.50)
    assert "Guide for Plant Appraisal, 10th ed." in a.options["value_basis_label"]
    assert "$50.00/sq in" in a.options["value_basis_label"]
    assert a.options["appraisal_edition"] == 10
    assert any("10th ed." in s for s in a.method["data_sources"])
    assert not any("PLACEHOLDER" in s and "10th" in s for s in a.assumptions)  # the unit cost was given


def test_tenth_edition_placeholder_is_said_and_ninth_is_named():
    a = assess(_survey(), value_basis="appraised", fee_schedule=SCHEDULE)
    assert any("10th ed." in s and "PLACEHOLDER" in s for s in a.assumptions)
    # the placeholder: ACRU's i-Tree Streets replacement tree, $530 / 7.0650048828125 sq in = 75.01764 $/sq in;
    # x 113.09734 = 8,484.295; x 80% = 6,787.436 -> $6,787.44
    assert list(a.trees["value_usd"]) == [6787.44] * 3
    nine = assess(_survey(), value_basis="appraised")
    assert "9th ed." in nine.options["value_basis_label"] and nine.options["appraisal_edition"] == 9
    # 9th: [530 + 66 x (113.0973 - 7.0650)] x 90% x 80% = $5,420.26 (tests/models/test_appraisal.py)
    assert list(nine.trees["value_usd"]) == [5420.26] * 3


def test_bad_edition_is_refused():
    with pytest.raises(ValueError, match="appraisal_edition must be 9 or 10"):
        load_fee_schedule({**SCHEDULE, "appraisal_edition": 11})
    with pytest.raises(ValueError, match="appraisal_external_pct"):
        load_fee_schedule({**SCHEDULE, "appraisal_external_pct": "150"})


def test_per_tree_limitations_from_the_survey(tmp_path):
    from treecalc.ingest import read_survey

    f = tmp_path / "s.csv"
    f.write_text(
        "Tag,Species,DBH (in),Action,Condition,Functional limitations (%),External limitations (%)\n"
        "A,Acer rubrum,12,Remove,Good,75,\n"
        "B,Acer rubrum,12,Remove,Good,,50\n"
        "C,Acer rubrum,12,Remove,Good,lots,\n"
    )
    sv = read_survey(f)
    assert list(sv.trees.columns[-2:]) == ["functional_limitation_pct", "external_limitation_pct"]
    assert any("not a percentage" in w for w in sv.trees["warnings"])
    fs = {**SCHEDULE, "appraisal_unit_cost_usd_per_sqin": "50"}
    a = assess(sv, value_basis="appraised", fee_schedule=fs)
    # 50 x 113.09734 x 80% = 4,523.894; A x 75% = 3,392.92; B x 50% = 2,261.95; C: not read, 100% -> 4,523.89
    assert list(a.trees["value_usd"]) == [3392.92, 2261.95, 4523.89]
