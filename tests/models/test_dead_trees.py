"""A dead tree has no leaf area, so no environmental value: benefits 0, value 0, not counted toward
§208-22A/F, but still a tree removed for §208-19A(1) and clear cutting.

The survey is an arborist's removal plan for one lot: four trees to come down, one a white ash killed by
emerald ash borer. The benefits are worked by hand from the i-Tree Streets Northeast tables
(``shared/reference/itree-streets-northeast/benefits/*.csv``), land use not given (zone tables, C = 1,
home price $500,000, M = 583.835 m², the large reference tree's leaf area), prices of ``prices.csv`` (stormwater $0.008/gal). Each tree is
halfway between two DBH classes (12 in = 30.48 cm between 22.86 and 38.10; 18 in = 45.72 cm between 38.10
and 53.34) or 5/6 of the way (14 in = 35.56 cm: (35.56 - 22.86) / 15.24 = 0.8333):

* red maple ACRU 12 in: stormwater (3.59 + 6.66)/2 = 5.125 m³ × 264.172 × 0.008 = $10.83; energy
  72.05 kWh × 0.1401 + 2746.65 kBtu × 0.01408 = $48.77; air quality Σ kg × 2.20462 × $/lb = $8.00; CO₂
  (51.05 + 98.4) kg × 2.20462 × 0.00334 = $1.10; aesthetic 7.75 m² × 0.0088 × 500,000 / 583.835 = $58.41;
  total $127.11
* northern red oak QURU 18 in: stormwater 9.425 m³ → $19.92; energy 140.4 kWh, 5028.75 kBtu → $90.47;
  air $15.48; CO₂ (130.45 + 191.85) kg → $2.37; aesthetic 8.8 m² → $66.32; total $194.57
* sugar maple ACSA2 14 in: stormwater 2.92 + 0.8333 × 3.13 = 5.5283 m³ → $11.68; energy 86.133 kWh,
  3129.467 kBtu → $56.13; air $9.27; CO₂ (79.4 + 117.617) kg → $1.45; aesthetic 8.0667 m² → $60.79;
  total $139.33
* white ash FRAM 12 in (value row FRPE), dead. Alive it would be: stormwater 5.19 m³ → $10.97; energy
  85.75 kWh, 3219.95 kBtu → $57.35; air $9.81; CO₂ (44.35 + 117.15) kg → $1.19; aesthetic 7.8 m² → $58.78;
  total $138.10 — 138.10 / (127.11 + 194.57 + 139.33 + 138.10 = 599.11) = 23% of the permit's counted value
  (at the old $0.0008 stormwater price, 128.23 / 551.04 = 23% too). Dead, it has no leaf area: $0.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import treecalc
from treecalc.ingest import read_survey
from treecalc.report.json import assessment_json

SURVEY = {
    "Tag #": [101, 102, 103, 104],
    "Botanical Name": ["Acer rubrum", "Quercus rubra", "Acer saccharum", "Fraxinus americana"],
    "DBH (in.)": [12, 18, 14, 12],
    "Condition": ["Good", "Fair", "Good", "Dead"],
    "Action": ["Remove", "Remove", "Remove", "Remove"],
}


def _survey(tmp_path, **changes):
    cols = {**SURVEY, **changes}
    path = tmp_path / "removal_plan.csv"
    pd.DataFrame(cols).to_csv(path, index=False)
    return read_survey(path, site={"jurisdiction": "croton-on-hudson"})


def _rows(a):
    return {str(t["tag"]): t for t in assessment_json(a)["per_tree"]}


def test_a_dead_white_ash_has_no_value_and_is_not_counted_toward_208_22a(tmp_path):
    a = treecalc.assess(_survey(tmp_path))
    rows = _rows(a)
    ash = rows["104"]
    assert ash["dead"] is True and ash["usd_total_annual"] == 0 and ash["value_usd"] == 0
    assert ash["counted"] is False and "dead tree" in ash["exclusion"] and "§208-22A/F" in ash["exclusion"]
    assert "dead tree: no leaf area" in ash["disclosures"]
    assert [rows[t]["dead"] for t in ("101", "102", "103")] == [False, False, False]
    # the live trees, by hand (module docstring): 127.11 + 194.57 + 139.33 = 461.01
    assert [rows[t]["value_usd"] for t in ("101", "102", "103")] == pytest.approx([127.11, 194.57, 139.33], abs=0.01)
    part = {p["section"]: p for p in assessment_json(a)["replacement_parts"]}["§208-22A"]
    assert part["trees"] == 3 and part["value_usd"] == pytest.approx(461.01, abs=0.015)
    # 90% of 461.01 = 414.909, rounded up to the cent (at least): 414.91
    assert part["required_value_usd"] == pytest.approx(414.91, abs=0.015)
    assert a.replacement.required_value_usd == pytest.approx(414.91, abs=0.015)


def test_a_dead_tree_still_counts_as_a_removal_for_the_permit_and_clear_cutting(tmp_path):
    # four removals, one of them dead: "more than three trees" (§208-19A(1)) and, without a permit,
    # "the removal of four or more trees" (clear cutting, §208-17, §208-19A(8)) both still hold
    a = treecalc.assess(_survey(tmp_path))
    j = assessment_json(a)
    assert j["trees_removed"] == 4 and j["permit_required"] is True
    triggers = {ln["section"]: ln["value"] for ln in j["lines"] if ln["item"] == "Permit trigger"}
    assert "(4, including 0 earlier)" in triggers["§208-19A(1)"]
    assert "4 or more" in triggers["§208-19A(8)"]
    assert _rows(a)["104"]["permit_needed"] is True


def test_the_statement_says_it_in_one_line(tmp_path):
    a = treecalc.assess(_survey(tmp_path))
    dead = [ln for ln in a.lines if ln["item"] == "Dead trees"]
    assert len(dead) == 1 and dead[0]["value"] == 1
    assert "no environmental value" in dead[0]["note"] and "104" in dead[0]["note"]
    assert any("dead tree" in r and "§208-22" in r for r in a.method["readings"])
    # the Excel statement: the line on the Summary, the flag and the note per tree on the Trees sheet
    import io

    import openpyxl

    from treecalc.report.statement import statement_bytes

    wb = openpyxl.load_workbook(io.BytesIO(statement_bytes(a)), read_only=True)
    summary = [r for r in wb["Summary"].iter_rows(values_only=True) if r and "Dead trees" in r]
    assert len(summary) == 1 and any("no environmental value" in str(c) for c in summary[0])
    rows = [r for r in wb["Trees"].iter_rows(values_only=True) if r]
    head = next(r for r in rows if "Dead (no environmental value)" in r)
    col = head.index("Dead (no environmental value)")
    assert [r[col] for r in rows[rows.index(head) + 1 :]][:4] == ["No", "No", "No", "Yes"]
    # no dead tree, no such line
    b = treecalc.assess(_survey(tmp_path, Condition=["Good", "Fair", "Good", "Poor"]))
    assert not [ln for ln in b.lines if ln["item"] == "Dead trees"]


def test_a_census_status_dead_is_a_dead_tree(tmp_path):
    # a street-tree census export: Alive / Dead / Stump in a status column, no condition column
    path = tmp_path / "census.csv"
    pd.DataFrame(
        {
            "tree_id": [1, 2],
            "spc_latin": ["Fraxinus americana", "Fraxinus americana"],
            "tree_dbh": [12, 12],
            "status": ["Alive", "Dead"],
        }
    ).to_csv(path, index=False)
    s = read_survey(path)
    assert s.trees["condition"].tolist() == ["", "dead"]
    ben = treecalc.compute_benefits(s.trees)
    assert ben["dead"].tolist() == [False, True]
    # alive: $138.10 by hand (module docstring); dead: nothing
    assert ben["usd_total_annual"].round(2).tolist() == [pytest.approx(138.10, abs=0.01), 0.0]
    assert ben.loc[1, ["stormwater_gal", "electricity_kwh", "co2_sequestered_lb", "leaf_area_increase_m2"]].eq(0).all()


def test_dead_is_zero_on_the_capital_bases_too(tmp_path):
    s = _survey(tmp_path)
    for basis in ("appraised", "cumulative:10"):
        a = treecalc.assess(s, value_basis=basis)
        rows = _rows(a)
        assert rows["104"]["value_usd"] == 0 and rows["104"]["counted"] is False
        assert rows["101"]["value_usd"] > 0
    # CTLA: white ash FRAM 12 in, good: [530 + 66 × (113.0973 - 7.0650)] × 0.40 × 0.80 = 7,528.13 × 0.32 = $2,409.00; dead (0 %): $0
    a = treecalc.assess(_survey(tmp_path, Condition=["Good", "Fair", "Good", "Good"]), value_basis="appraised")
    assert _rows(a)["104"]["value_usd"] == pytest.approx(2409.00, abs=0.01)


def test_one_dead_tree_through_benefits():
    r = treecalc.benefits("Fraxinus americana", 12, condition="dead")
    assert r["dead"] is True and r["dollars"]["total_annual"] == 0 and r["replacement_value_usd"] == 0
    assert r["cumulative_usd"] == 0 and r["stormwater_gal"] == 0
    assert r["disclosures"][0].startswith("dead tree")
    alive = treecalc.benefits("Fraxinus americana", 12)
    assert alive["dead"] is False and round(alive["dollars"]["total_annual"], 2) == 138.10
    assert np.isclose(alive["replacement_value_usd"], 2409.00, atol=0.01)


def test_a_dead_tree_has_no_value_in_any_climate_zone():
    # The same dead 15 in red maple in the Piedmont (zone=) and in two zones given per tree: every benefit
    # column is 0 and the tree is flagged, while the live twin beside it keeps its zone's value (> 0).
    from treecalc.models.benefits import OUTPUT_COLUMNS, compute_benefits

    frame = pd.DataFrame(
        {"species": ["Acer rubrum"] * 2, "dbh_in": [15.0, 15.0], "condition": ["dead", "good"]},
    )
    for kw, zones in (({"zone": "PiedmtCLT"}, None), ({}, ["PiedmtCLT", "MidWstMSP"])):
        f = frame.assign(zone=zones) if zones else frame
        out = compute_benefits(f, **kw)
        assert list(out["dead"]) == [True, False]
        assert all(out[c].iloc[0] == 0.0 for c in OUTPUT_COLUMNS)
        assert out["usd_total_annual"].iloc[1] > 0
