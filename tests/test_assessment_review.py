"""Regressions from the review of the law engine: each expected number worked out by hand in a comment.

Annual values (National Tree Benefit Calculator figures of the benefit engine, default parameters):
ACRU 12 in = $117.36/yr, ACRU 2 in = $64.04/yr.
"""

import json
import math
import sys
from pathlib import Path
from types import SimpleNamespace

import openpyxl
import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).parent / "rules"))
from rules_helpers import make_trees  # noqa: E402

import treecalc.assessment as assessment  # noqa: E402
from treecalc.assessment import OFFENCE_READING, OTHER_PROHIBITIONS_NOTE, assess, required_value  # noqa: E402
from treecalc.cli import main  # noqa: E402
from treecalc.planting import StockOption, plan  # noqa: E402
from treecalc.statement import statement_bytes  # noqa: E402

QUIET = {"subdividable": False, "has_residence": True, "site_plan_required": False}
STOCK12 = [{"species": "ACRU", "dbh_in": 12, "unit_cost_usd": 900}]


def survey(rows, site=None, source=None):
    return SimpleNamespace(
        trees=make_trees(rows),
        rejected=pd.DataFrame(),
        site=dict(site or {}),
        site_assumptions=[],
        warnings=[],
        rows_read=len(rows),
        source=source or {},
    )


def three_acru(action="remove"):
    return [{"species_code": "ACRU", "dbh_in": 12, "action": action}] * 3


# -- 1. damaged trees do not inherit (1)/(8); §208-18 maximum for the removals only ---------------
def test_four_removed_one_damaged_end_to_end():
    # 4 ACRU 6 in removed + 1 ACRU 20 in damaged on a quiet lot. (1) and (8) tag the 4 removals only.
    # civil: 4 x $500 x 2 (4 > 3; clear cutting) = $4,000; criminal: 4 x $5,000 (§208-18A/C) = $20,000
    rows = [{"species_code": "ACRU", "dbh_in": 6, "action": "removed"}] * 4 + [
        {"species_code": "ACRU", "dbh_in": 20, "action": "damaged"}
    ]
    a = assess(survey(rows, QUIET), replacement_stock=STOCK12)
    assert a.trees["permit_triggers"].tolist() == ["§208-19A(1); §208-19A(8)"] * 4 + [""]
    assert a.trees["offence"].tolist() == [True] * 4 + [False]
    assert a.penalties["civil_penalty_max_usd"] == 4000 and a.penalties["criminal_fine_max_usd"] == 20000


# -- 2. site facts as text are parsed ---------------------------------------------------------------
def test_violation_false_as_text_applies_90_not_120():
    # 3 ACRU 12 in removed without a permit on a subdividable lot, but the site fact says violation=false:
    # §208-22A 90%: 3 x 117.36 = 352.08 x 0.9 = 316.872 -> up 316.88 (120% would be 422.50)
    a = assess(survey(three_acru("removed"), {"subdividable": "true", "violation": "false"}), replacement_stock=STOCK12)
    assert a.replacement["section"] == "§208-22A" and a.replacement["required_value_usd"] == pytest.approx(316.88)
    a = assess(survey(three_acru("removed"), {"subdividable": True, "violation": "yes"}), replacement_stock=STOCK12)
    assert a.replacement["section"] == "§208-22F" and a.replacement["required_value_usd"] == pytest.approx(422.50)
    with pytest.raises(ValueError, match="site fact violation"):
        assess(survey(three_acru("removed"), {"violation": "dunno"}))


def test_wesley_vacant_lot_false_as_text():
    # 12 in removed, vacant_lot "false", small lot with a CO: no (c), (d), (e): no fine
    rows = [{"species_code": "ACRU", "dbh_in": 12, "action": "removed"}]
    a = assess(
        survey(
            rows, {"vacant_lot": "false", "has_residence": False, "lot_area_acres": "0.5", "one_family_co_issued": True}
        ),
        jurisdiction="wesley_hills",
    )
    assert a.to_json()["fine_max_usd"] == 0 and a.to_json()["permit_triggers"] == []
    with pytest.raises(ValueError, match="lot_area_acres"):
        assess(survey(rows, {"lot_area_acres": "inf"}), jurisdiction="wesley_hills")
    with pytest.raises(ValueError, match="lot_area_acres"):
        assess(survey(rows, {"lot_area_acres": -2}), jurisdiction="wesley_hills")


# -- 3, 4. Wesley Hills: removals only; lot-line column not surveyed --------------------------------
def test_wesley_damaged_not_fined_and_lot_line_not_surveyed():
    # lot with a residence, 0.5 acre, no CO. Tree 1: 8 in removed; tree 2: 12 in damaged.
    # The survey had no lot-line column (the reader filled False): tree 1 is assumed within 20 ft -> (e),
    # $5,000, but on an assumed fact: conditional (issue 9), not in fine_max_usd. Tree 2 is damaged, not
    # removed: no trigger, no fine.
    rows = [
        {"species_code": "ACRU", "dbh_in": 8, "action": "removed", "within_20ft_of_lot_line": False},
        {"species_code": "ACRU", "dbh_in": 12, "action": "damaged", "within_20ft_of_lot_line": False},
    ]
    s = survey(
        rows,
        {"has_residence": True, "lot_area_acres": 0.5, "one_family_co_issued": False},
        source={"flags_not_surveyed": ["within_20ft_of_lot_line"]},
    )
    a = assess(s, jurisdiction="wesley_hills")
    assert a.trees["permit_triggers"].tolist() == ["§95-3A(1)(e)", ""]
    assert a.to_json()["fine_max_usd"] == 0 and a.to_json()["fine_conditional_usd"] == 5000
    assert a.to_json()["offence_rows"][0]["depends_on"].startswith("within_20ft_of_lot_line not given")
    assert any("no lot-line column" in x for x in a.assumptions)
    assert any("damaged tree" in x for x in a.wesley_hills["notes"])


# -- 5. validation ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kw,match",
    [
        ({"replacement_percent": 0}, "replacement percentage"),
        ({"replacement_percent": -10}, "replacement percentage"),
        ({"replacement_percent": float("nan")}, "replacement percentage"),
        ({"replacement_percent": float("inf")}, "replacement percentage"),
        ({"plantable": -1}, "plantable"),
        ({"plantable": 1.5}, "plantable"),
        ({"plantable_area_sqft": -100.0}, "plantable area"),
        ({"plantable_area_sqft": float("inf")}, "plantable area"),
        ({"continuing_days": 1.5}, "whole number"),
        ({"continuing_days": 0}, "whole number"),
    ],
)
def test_bad_numbers_are_value_errors(kw, match):
    with pytest.raises(ValueError, match=match):
        assess(survey(three_acru("removed"), {"subdividable": True}), replacement_stock=STOCK12, **kw)


def test_solver_failure_is_a_value_error_not_runtime_error():
    o = StockOption("ACRU", "x", "x", 2.0, 450.0, 64.04, True, "small", "broadleaf", 900.0)
    with pytest.raises(ValueError, match="plantable"):
        plan([o], 100.0, fee_per_tree_usd=450.0, plantable=-1)
    with pytest.raises(ValueError, match="plantable area"):
        plan([o], 100.0, fee_per_tree_usd=450.0, plantable_area_sqft=-5.0)


def test_replacement_percent_without_violation_is_said():
    # 3 proposed removals under a permit: §208-22A 90%; a percentage given is not used and a warning says so
    a = assess(survey(three_acru(), {"subdividable": True}), replacement_stock=STOCK12, replacement_percent=150)
    assert a.replacement["percent"] == 90 and any("only after a violation" in w for w in a.warnings)


# -- 6. "at least 90%" rounds up --------------------------------------------------------------------
def test_required_value_rounds_up_and_the_plan_follows():
    # 11.16 x 90% = 10.044 -> 10.05 (half-up would give 10.04, which is less than 90%)
    assert required_value(11.16, 90) == 10.05
    # 120%: 10.00 x 1.2 = 12.00 exactly: stays 12.00
    assert required_value(10.00, 120) == 12.00
    # trees of 5.02: 2 x 5.02 = 10.04 < 10.05 -> 3 trees (15.06); with 10.04 two would have done
    o = StockOption("ACRU", "x", "x", 2.0, 100.0, 5.02, True, "small", "broadleaf", 900.0)
    assert plan([o], required_value(11.16, 90), fee_per_tree_usd=450.0).counts == [3]
    assert plan([o], 10.04, fee_per_tree_usd=450.0).counts == [2]


# -- 9. Wesley Hills label, days, exceptions --------------------------------------------------------
def test_wesley_label_days_and_exceptions():
    rows = [{"species_code": "ACRU", "dbh_in": 12, "action": "removed"}]
    site = {"has_residence": False, "lot_area_acres": 0.5, "one_family_co_issued": True}
    a = assess(survey(rows, site), jurisdiction="wesley_hills", continuing_days=3)
    j = a.to_json()
    assert "§208" not in j["value_basis_label"] and not any("§208" in ln["section"] for ln in a.lines)
    # tree fine: 1 x $5,000 (penalties A has no per-day clause: days do not multiply it)
    assert j["fine_max_usd"] == 5000
    # other violations (B): $2,500 each day: 3 days x $2,500 = $7,500 per other violation, shown apart
    assert a.wesley_hills["other_violation_max_usd"] == 7500
    assert any(ln["value"] == 7500 and "3 x $2,500" in ln["note"] for ln in a.lines)
    # §95-3D(2) work by or for the Village: no permit, no fine
    a = assess(survey(rows, {**site, "village_work": "yes"}), jurisdiction="wesley_hills")
    assert a.to_json()["fine_max_usd"] == 0 and a.permit["exceptions_applied"][0]["section"] == "§95-3D(2)"


# -- 10, 11. readings stated ------------------------------------------------------------------------
def test_readings_and_notes_state_the_offence_rule_and_what_is_left_to_the_engineer():
    a = assess(survey(three_acru("removed"), {"subdividable": True}), replacement_stock=STOCK12)
    readings = " ".join(a.method["readings"])
    assert "second and each subsequent violation" in readings and "$1,000 per tree" in readings
    assert OFFENCE_READING in a.method["readings"] and OTHER_PROHIBITIONS_NOTE in a.method["readings"]
    assert "§208-18B" in OTHER_PROHIBITIONS_NOTE and "§208-18D" in OFFENCE_READING and "§208-20F" in OFFENCE_READING
    assert OFFENCE_READING in a.penalties["notes"] and OTHER_PROHIBITIONS_NOTE in a.penalties["notes"]
    # the statement writes them (Penalties notes and Method & sources)
    import io

    wb = openpyxl.load_workbook(io.BytesIO(statement_bytes(a)), read_only=True)
    text = " ".join(str(c) for ws in wb.worksheets for row in ws.iter_rows(values_only=True) for c in row if c)
    assert OFFENCE_READING in text and OTHER_PROHIBITIONS_NOTE in text


# -- 12. conifer replacements -----------------------------------------------------------------------
def test_conifer_height_assumption_surfaced_and_short_conifer_refused():
    s = survey(three_acru("removed"), {"subdividable": True})
    a = assess(s, replacement_species="pine", replacement_dbh_in=2, replacement_cost_usd=300)
    assert any("conifer height not given" in x for x in a.assumptions)
    assert any("conifer height not given" in ln["note"] for ln in a.lines if ln["item"] == "Replacement stock")
    a = assess(s, replacement_species="pine", replacement_dbh_in=2, replacement_height_ft=6, replacement_cost_usd=300)
    assert not any("conifer height" in x for x in a.assumptions)
    with pytest.raises(ValueError, match="4 ft is under the 5 ft minimum"):
        assess(s, replacement_species="pine", replacement_dbh_in=2, replacement_height_ft=4, replacement_cost_usd=300)


# -- 13. --out ----------------------------------------------------------------------------------
@pytest.fixture
def fake_survey(monkeypatch):
    s = survey(three_acru("removed"))
    monkeypatch.setattr(assessment, "_load_survey", lambda path, progress=None, species_map=None: s)
    import treecalc.ingest

    # the CLI reads the survey itself, in a bounded child process (treecalc.ingest.limits)
    monkeypatch.setattr(treecalc.ingest, "read_survey", lambda path, **kw: s)
    return s


def test_out_bad_folder_and_extension_are_one_clean_error(fake_survey, capfd, tmp_path):
    assert main(["assess", "x.xlsx", "--out", str(tmp_path / "missing" / "x.xlsx")]) == 2
    err = capfd.readouterr().err
    assert err.startswith("error: --out") and "does not exist" in err and "Exception ignored" not in err
    assert main(["assess", "x.xlsx", "--out", str(tmp_path / "x.csv")]) == 2
    assert ".xlsx" in capfd.readouterr().err and not (tmp_path / "x.csv").exists()
    out = tmp_path / "s.xlsx"
    assert main(["assess", "x.xlsx", "--out", str(out)]) == 0
    assert out.read_bytes()[:2] == b"PK" and [p.name for p in tmp_path.iterdir()] == ["s.xlsx"]


def test_cli_validation_messages(fake_survey, capsys, tmp_path):
    bad = tmp_path / "fees.toml"
    bad.write_text('basis = "per_tree"\nfee_per_tree_usd = "1"\nmultiplier = = 2\n')
    for args, msg in (
        [["--days", "2.5"], "--days must be a whole number"],
        [["--replacement-percent", "nan"], "--replacement-percent"],
        [["--plantable", "-1"], "--plantable"],
        [["--plantable-area", "-5"], "--plantable-area"],
        [["--fee-schedule", str(bad)], f"fee schedule {bad}: invalid TOML at line 3"],
        [["--fee-schedule", str(tmp_path / "nope.toml")], f"fee schedule {tmp_path / 'nope.toml'} not found"],
        [["--site", "violation=maybe"], "site fact violation"],
    ):
        assert main(["assess", "x.xlsx", *args]) == 2, args
        assert msg in capsys.readouterr().err, args


def test_cli_replacement_height(fake_survey, capsys):
    assert (
        main(
            [
                "assess",
                "x.xlsx",
                "--json",
                "--site",
                "subdividable=true",
                "--replacement-species",
                "pine",
                "--replacement-dbh",
                "2",
                "--replacement-height",
                "6",
                "--replacement-cost",
                "300",
            ]
        )
        == 0
    )
    j = json.loads(capsys.readouterr().out)
    assert j["replacement"]["species_code"] == "PI2" and j["options"]["replacement_height_ft"] == 6.0
    assert math.isfinite(j["required_value_usd"])
