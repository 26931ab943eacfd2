"""A fact a count rests on that the survey does not give, under the count_by_class towns (Milltown Chapter 201,
Manalapan Chapter 222): a tree the Condition column calls dead, dying or diseased, and a Street Tree, Hazardous or
Dead cell left blank or "Unknown". The count of such a tree is not given, with a warning naming the tree and the fact
(or the exemption not held), and the site's total and amount in lieu are not given either; where the fact does not
change the count, the count stands.

Milltown, data/law/milltown/ch201_trees.toml: Category 1 from 2.5 in (street trees) or 6 in (other trees) to
12.99 in, 1 tree, $250; Category 2, 13 to 22.99 in, 2 trees, $500. The exemptions for hazard, dead or dying trees
are not held (readings/milltown.toml [exemptions]). Manalapan, data/law/manalapan/ch222_trees.toml: greater than
12 and up to 18 in, 2 trees, $700; its exemptions of § 222-25 for hazard, dead or dying trees are not held.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import treecalc
from treecalc.ingest import read_survey
from treecalc.report.json import assessment_json

DEAD_EXEMPTION = "(whether a dead, dying or diseased tree is exempt from replacement)"


def _assess(tmp_path: Path, text: str, town: str) -> tuple[dict[str, Any], Any]:
    path = tmp_path / "survey.csv"
    path.write_text(text, encoding="utf-8")
    survey = read_survey(path)
    return assessment_json(treecalc.assess(survey, jurisdiction=town, plantable=0)), survey


CONDITIONS = (
    "Tag,Species,DBH,Action,Condition\n"
    "1,Acer rubrum,15,Remove,Dead\n"  # dead: the exemption not held, no count
    "2,Acer rubrum,15,Remove,Dying\n"  # class poor, and dying: no count
    "3,Acer rubrum,15,Remove,Diseased\n"  # no class, and diseased: no count
    "4,Acer rubrum,15,Remove,Good\n"  # Milltown Category 2 / Manalapan >12 to 18: 2 trees
)


@pytest.mark.parametrize(("town", "section"), [("milltown", "Ch. 201 (exemptions)"), ("manalapan", "§ 222-25")])
def test_a_tree_the_condition_calls_dead_dying_or_diseased_gets_no_count(
    tmp_path: Path, town: str, section: str
) -> None:
    # trees 1-3 undecided (the dead-tree exemption not held), tree 4: 2 trees; no total, no amount in lieu
    got, survey = _assess(tmp_path, CONDITIONS, town)
    assert got["replacement_trees_by_tag"] == {"1": None, "2": None, "3": None, "4": 2}
    assert got["replacement_trees_required"] is None
    assert got["fund_in_lieu_usd"] is None
    for tag in ("1", "2", "3"):
        said = [w for w in got["warnings"] if f"no replacement count is given for tree {tag}," in w]
        assert len(said) == 1
        assert section in said[0] and DEAD_EXEMPTION in said[0]
    # the survey reader says each is dead, dying or diseased: the flag the outputs show agrees with the count
    assert survey.trees["dead_or_diseased"].tolist() == [True, True, True, False]
    assert survey.trees["condition"].tolist() == ["dead", "poor", "", "good"]
    warned = survey.trees["warnings"].tolist()
    assert "read as dead, dying or diseased" in warned[1] and "condition class poor" in warned[1]
    assert "read as dead, dying or diseased" in warned[2] and "not recognised" not in warned[2]
    # no line says the flag was taken as no for every tree while the Trees sheet shows dead trees
    assert not [a for a in got["assumptions"] if "dead_or_diseased" in a]


def test_a_live_tree_with_dead_limbs_is_not_dead(tmp_path: Path) -> None:
    # "Fair, dead limbs" is a live tree: Milltown Category 2 (15 in), 2 trees; total 2, 2 x $500 / 2 = $500
    got, survey = _assess(
        tmp_path, 'Tag,Species,DBH,Action,Condition\n1,Acer rubrum,15,Remove,"Fair, dead limbs"\n', "milltown"
    )
    assert got["replacement_trees_by_tag"] == {"1": 2}
    assert got["replacement_trees_required"] == 2
    assert got["fund_in_lieu_usd"] == pytest.approx(500.0)
    assert survey.trees["dead_or_diseased"].tolist() == [False]


def test_a_blank_or_unknown_street_tree_cell_leaves_the_count_open_where_it_matters(tmp_path: Path) -> None:
    # 4 in: 1 tree as a street tree (from 2.5 in), 0 otherwise (from 6 in); 10 in: Category 1 either way, 1 tree
    text = (
        "Tag,Species,DBH,Action,Street Tree\n"
        "1,Acer rubrum,4,Remove,\n"  # open, the count rests on it: none
        "2,Acer rubrum,4,Remove,No\n"  # 0
        "3,Acer rubrum,4,Remove,Yes\n"  # 1
        "4,Acer rubrum,4,Remove,Unknown\n"  # open: none
        "5,Acer rubrum,10,Remove,\n"  # 1 either way
    )
    got, _ = _assess(tmp_path, text, "milltown")
    assert got["replacement_trees_by_tag"] == {"1": None, "2": 0, "3": 1, "4": None, "5": 1}
    assert got["replacement_trees_required"] is None
    assert got["fund_in_lieu_usd"] is None
    for tag in ("1", "4"):
        said = [w for w in got["warnings"] if f"no replacement count is given for tree {tag}," in w]
        assert len(said) == 1
        assert "whether it is a street tree is not given" in said[0]
        assert "1 replacement tree as a street tree, no replacement tree otherwise" in said[0]
    assert not [w for w in got["warnings"] if "tree 5" in w]


def test_a_maybe_street_tree_cell_is_open_too(tmp_path: Path) -> None:
    # "maybe": 4 in, 1 tree as a street tree, 0 otherwise: no count, the cell's words quoted
    got, _ = _assess(tmp_path, "Tag,Species,DBH,Action,Street Tree\n1,Acer rubrum,4,Remove,maybe\n", "milltown")
    assert got["replacement_trees_by_tag"] == {"1": None}
    assert got["replacement_trees_required"] is None
    assert [w for w in got["warnings"] if "the survey says 'maybe'" in w and "tree 1" in w]


def test_a_blank_hazardous_cell_leaves_the_count_open_where_it_matters(tmp_path: Path) -> None:
    # the reviewer's survey: tree 4, 15 in, every cell blank: Category 2 (2 trees) unless exempt, the hazard
    # exemption not held: no count. Tree 5, 5 in, blank: under 6 in, 0 exempt or not.
    text = (
        "Tag,Species,DBH,Action,Street Tree,Dead or Diseased,Hazardous\n"
        "4,Acer rubrum,15,Remove,,,\n"
        "5,Acer rubrum,5,Remove,No,,\n"
        "6,Acer rubrum,15,Remove,No,No,No\n"  # Category 2: 2 trees
    )
    got, _ = _assess(tmp_path, text, "milltown")
    assert got["replacement_trees_by_tag"] == {"4": None, "5": 0, "6": 2}
    assert got["replacement_trees_required"] is None
    said = [w for w in got["warnings"] if "no replacement count is given for tree 4," in w]
    assert len(said) == 1
    assert "Ch. 201 (exemptions)" in said[0] and "whether tree 4 is hazardous is not given" in said[0]


def _assess_with_data(data: Path, survey: Path) -> dict[str, Any]:
    """``treecalc assess --json`` in a fresh interpreter: the data folder (TREECALC_DATA) is chosen at import."""
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "TREECALC_DATA": str(data)}
    code = "import sys; from treecalc.cli import main; sys.exit(main(sys.argv[1:]))"
    argv = ["assess", str(survey), "--jurisdiction", "milltown", "--plantable", "0", "--json"]
    r = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    return dict(json.loads(r.stdout))


def test_the_fee_reading_states_the_shares_of_the_law_file(tmp_path: Path) -> None:
    import shutil

    from treecalc.reference.datafolder import BUNDLED_DATA_DIR

    survey = tmp_path / "s.csv"
    survey.write_text("Tag,Species,DBH,Action\n1,Acer rubrum,15,Remove\n", encoding="utf-8")  # Category 2: 2 trees
    data = tmp_path / "data"
    shutil.copytree(BUNDLED_DATA_DIR, data, ignore=shutil.ignore_patterns("examples"))
    got = _assess_with_data(data, survey)
    # as shipped: $250 / 1, $500 / 2, $750 / 3, $1,000 / 4 = $250 in every category; 2 in lieu x $250 = $500
    fee = [r["reading"] for r in got["readings"] if "Tree Replacement Fee" in r["reading"]]
    assert len(fee) == 1 and "for each: $250 in every class;" in fee[0]
    assert got["fund_in_lieu_usd"] == pytest.approx(500.0)
    # the copy's Category 2 fee raised to $600: its share $600 / 2 = $300, the others still $250 a tree; 2 in lieu
    # x $300 = $600, and the reading says the new share, not the $250 of the text as shipped
    law = data / "law" / "milltown" / "ch201_trees.toml"
    text = law.read_text(encoding="utf-8")
    assert text.count("usd = 500\n") == 1
    law.write_text(text.replace("usd = 500\n", "usd = 600\n"), encoding="utf-8")
    got = _assess_with_data(data, survey)
    assert got["fund_in_lieu_usd"] == pytest.approx(600.0)
    fee = [r["reading"] for r in got["readings"] if "Tree Replacement Fee" in r["reading"]]
    assert len(fee) == 1
    # $250 stays the share of three categories: the one apart is named by its DBH, its division shown
    assert "for each: $250 a tree in every class but 13 to 22.99, where $600 / 2 = $300;" in fee[0]
    assert "$250 in every class" not in fee[0]


def test_an_exemption_flag_not_surveyed_claims_nothing_and_is_not_called_an_obligation() -> None:
    # Milltown reads street_tree (a threshold from 2.5 in: more obligations) and hazardous, dead_or_diseased (an
    # exemption). Without their columns each is taken as no; only the street-tree line warns of obligations, and
    # the exemption flags say no exemption is claimed.
    from treecalc.ingest.unsurveyed import not_surveyed_text

    lines = not_surveyed_text(["street_tree", "hazardous", "dead_or_diseased"], "milltown")
    assert lines == [
        "not surveyed (no column): street_tree — taken as no for every tree; confirm them on site, since a tree so "
        "flagged carries more obligations",
        "not surveyed (no column): hazardous, dead_or_diseased — taken as no for every tree: no exemption or "
        "exclusion is claimed for a tree without the column; give the column to claim one",
    ]


@pytest.mark.parametrize(("town", "trees"), [("milltown", 3), ("la_grange_park", 10)])
def test_a_totals_row_is_no_tree_and_leaves_the_site_total(tmp_path: Path, town: str, trees: int) -> None:
    # the survey's own "Total" row is rejected as a totals row, not a tree: the site's count stands.
    # Milltown: 15 in is Category 2 (13 to 22.99): 2 trees; 8 in Category 1 (6 to 12.99): 1 tree; 2 + 1 = 3.
    # La Grange Park § 95.23(I): (15 + 8) / 2.5 = 9.2, rounded up to 10 trees.
    got, _ = _assess(
        tmp_path, "Tag,Species,DBH,Action\n1,Acer rubrum,15,Remove\n2,Acer rubrum,8,Remove\nTotal,,23,\n", town
    )
    assert got["rejected"] == 1 and got["rejected_rows"][0]["kind"] == "totals row"
    assert got["replacement_trees_required"] == trees


def test_each_town_reading_names_the_section_it_reads(tmp_path: Path) -> None:
    # Manalapan's readings (data/readings/manalapan.toml): the set-off of table A, B's credit, C's contribution in
    # lieu, each under its own part of the chapter, not all under the replacement table
    got, _ = _assess(tmp_path, "Tag,Species,DBH,Action\n1,Acer rubrum,15,Remove\n", "manalapan")
    said = {r["reading"].split(": ", 1)[1][:12]: r["section"] for r in got["readings"]}
    assert said == {
        "the Alternat": "Ch. 222 replacement A",
        "B's \"one-for": "Ch. 222 replacement B",
        "C: the contr": "Ch. 222 replacement C",
    }


@pytest.mark.parametrize("town", ["milltown", "manalapan", "la-grange-park"])
def test_a_total_a_survey_fact_left_open_is_not_determined_not_not_held(tmp_path: Path, town: str) -> None:
    # trees 1-3 are undecided because their cells leave a fact open (with an exemption the town's text does
    # not hold): the law's table is held, so the total is "not determined", naming the trees, and never
    # "not held for <town>" as if the replacement section itself were missing
    got, _ = _assess(tmp_path, CONDITIONS, town)
    said = {ln["item"]: ln["value"] for ln in got["lines"] if ln["item"].startswith("Replacement")}
    assert (
        said["Replacement trees required"] == "not determined: no count for tree 1, tree 2, tree 3 (why: the warnings)"
    )
    assert not any(str(v).startswith("not held") for v in said.values())
