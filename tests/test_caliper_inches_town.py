"""The caliper-inches family (treecalc/rules/families/caliper_inches.py) applied to a town held as data alone: Cedar
Ford (tests/villages/cedar_ford), whose text sets every figure (the percentage by DBH class, the caliper, a fee per
caliper inch), and La Grange Park, IL (data/law/la_grange_park), whose fee is not held. ``plan`` under Cedar Ford is
held to brute force over every set of removals.

Cedar Ford Chapter 7 (tests/villages/cedar_ford/ordinance.txt): §7-3 trees of 6 in DBH or more: A 6 to under 24 in,
50 % of the DBH; B 24 in or more, 100 %; C replacement trees of at least 2 in caliper; §7-4 $150 per caliper inch not
planted; §7-5 a tree certified hazardous is exempt.
"""

from __future__ import annotations

import copy
import itertools
import json
import tomllib
from pathlib import Path

import pytest

from treecalc.law import LawSchemaError, registry, towns, validate
from treecalc.rules.families.caliper_inches import check_law

FOLDER = Path(__file__).parent / "villages" / "cedar_ford" / "data"
LAW = FOLDER / "law" / "cedar_ford" / "ch7_trees.toml"

SURVEY = (
    "Tag,Species,DBH (in),Action,Hazardous\n"
    "1,Acer rubrum,5.99,removed,no\n"  # under 6 in: not counted, 0
    "2,Acer rubrum,6,removed,no\n"  # A: 6 x 50 % = 3 in
    "3,Quercus rubra,23.99,remove,no\n"  # A: 23.99 x 50 % = 11.995 in
    "4,Quercus rubra,24,remove,no\n"  # B: 24 x 100 % = 24 in
    "5,Quercus rubra,30,remove,yes\n"  # hazardous: exempt (§7-5), 0
    "6,Acer rubrum,10,retain,no\n"  # retained
)
# inches: 3 + 11.995 + 24 = 38.995; trees: 38.995 / 2 = 19.4975 -> 20. With 5 planted on site (5 x 2 = 10 in):
# 38.995 - 10 = 28.995 in unmet x $150 = $4,349.25


@pytest.fixture
def cedar_ford(tmp_path, monkeypatch):
    with open(FOLDER / "readings" / "cedar_ford.toml", "rb") as fh:
        readings = tomllib.load(fh)
    monkeypatch.setitem(registry.REGISTRY, "cedar_ford", towns.record_of("cedar_ford", readings, FOLDER))
    monkeypatch.setenv(towns.TOWNS_ENV, str(FOLDER))
    f = tmp_path / "cedar.csv"
    f.write_text(SURVEY)
    return f


def test_the_town_has_no_python():
    assert not list(FOLDER.parent.rglob("*.py"))


def test_the_cli_json_gives_inches_trees_and_the_fee(cedar_ford, capsys):
    from treecalc.cli import main

    assert main(["assess", str(cedar_ford), "--jurisdiction", "cedar-ford", "--json", "--plantable", "5"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["replacement_inches_by_tag"] == {"1": 0.0, "2": 3.0, "3": 11.995, "4": 24.0, "5": 0.0}
    assert d["replacement_inches_required"] == pytest.approx(38.995)
    assert d["replacement_trees_required"] == 20
    assert d["fund_in_lieu_usd"] == 4349.25 and d["fund_in_lieu_cents"] == 434925
    # §7-2: trees 2-5, removed at 6 in or more, need the permit
    assert d["permit_required"] is True and d["permit_triggers"] == ["§7-2"]


def test_every_tree_planted_pays_nothing_and_a_tree_planted_counts_its_caliper(cedar_ford):
    import treecalc

    a = treecalc.assess(str(cedar_ford), jurisdiction="cedar_ford", plantable=20)
    assert a.replacement.trees_in_lieu == 0 and a.fund.fund_in_lieu_usd == 0.0
    # 19 planted: 38.995 - 38 = 0.995 in x $150 = $149.25
    a = treecalc.assess(str(cedar_ford), jurisdiction="cedar_ford", plantable=19)
    assert a.replacement.trees_in_lieu == 1 and a.fund.fund_in_lieu_usd == 149.25


def test_jurisdictions_lists_the_family(cedar_ford, capsys):
    from treecalc.cli import main

    assert main(["jurisdictions", "--json"]) == 0
    rows = {r["key"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["cedar_ford"]["family"] == "caliper_inches"
    lgp = rows["la_grange_park"]
    assert lgp["family"] == "caliper_inches" and lgp["effective"] == "2024-11-26"
    assert lgp["effective_placeholder"] is False  # Ord. 1235, passed 11-26-24: a date the text gives
    assert any("local nursery price" in n and "§ 95.23(I)" in n for n in lgp["not_held"])


def test_a_bad_entry_is_refused_at_load_naming_file_entry_and_range():
    raw = tomllib.loads(LAW.read_text(encoding="utf-8"))
    bad = copy.deepcopy(raw)
    bad["replacement"]["classes"]["rows"][0]["percent"] = -50
    with pytest.raises(
        LawSchemaError, match=r"ch7\.toml \[replacement\.classes\] row 1 percent: value -50 is out of range"
    ):
        validate(bad, "ch7.toml")
    bad = copy.deepcopy(raw)
    bad["fee"]["usd_per_caliper_inch"]["value"] = -150
    with pytest.raises(LawSchemaError, match=r"ch7\.toml \[fee\.usd_per_caliper_inch\]: value -150 is out of range"):
        validate(bad, "ch7.toml")
    bad = copy.deepcopy(raw)
    bad["replacement"]["caliper_min_in"]["value"] = 0
    with pytest.raises(LawSchemaError, match=r"caliper_min_in\]: value 0 is out of range"):
        validate(bad, "ch7.toml")


def test_the_family_refuses_a_law_it_cannot_apply():
    raw = tomllib.loads(LAW.read_text(encoding="utf-8"))
    check_law(raw, "ch7.toml")
    both = copy.deepcopy(raw)
    both["replacement"]["percent"] = {"value": 50}
    with pytest.raises(ValueError, match=r"ch7.toml \[replacement\]: give either"):
        check_law(both, "ch7.toml")
    two = copy.deepcopy(raw)
    two["fee"]["usd_per_tree"] = {"value": 300}
    with pytest.raises(ValueError, match=r"ch7.toml \[fee\]: give one of"):
        check_law(two, "ch7.toml")


PLAN_SURVEY = (
    "Tag,Species,DBH (in),Action\n"
    "1,Acer rubrum,8,remove\n"
    "2,Acer rubrum,23,remove\n"
    "3,Quercus rubra,24,remove\n"
    "4,Quercus rubra,5,remove\n"
    "5,Quercus rubra,12,removed\n"  # done already: 6 in, in every plan
)


def test_plan_is_the_cheapest_set_brute_force_finds(cedar_ford, tmp_path):
    import treecalc
    from treecalc.ingest import read_survey
    from treecalc.studies.plan import plan

    f = tmp_path / "plan.csv"
    f.write_text(PLAN_SURVEY)
    survey = read_survey(f)
    p = plan(survey, jurisdiction="cedar_ford", plantable=2)
    got = {s.k: (s.in_lieu_usd, sorted(s.remove)) for s in p.frontier}
    # brute force: every set of the optional trees assessed, the cheapest of each size
    trees = survey.trees
    optional = ["1", "2", "3", "4"]
    brute: dict[int, float] = {}
    for k in range(len(optional) + 1):
        for chosen in itertools.combinations(optional, k):
            cand = copy.copy(survey)
            cand.trees = trees.assign(
                action=[
                    "removed" if t == "5" else ("remove" if t in chosen else "retain") for t in trees["tag"].astype(str)
                ]
            )
            cost = treecalc.assess(cand, jurisdiction="cedar_ford", plantable=2).fund.fund_in_lieu_usd
            brute[k] = min(brute.get(k, float("inf")), cost)
    assert {k: v for k, (v, _) in got.items()} == brute
    # by hand, 2 trees planted (4 in): k=0 tree 5 alone 6 in: 6 - 4 = 2 in x $150 = $300;
    # k=1 + tree 4 (5 in, under 6: 0): $300; k=2 + tree 1 (4 in): 10 - 4 = 6 in: $900;
    # k=3 + tree 2 (11.5 in): 21.5 - 4 = 17.5 in: $2,625; k=4 + tree 3 (24 in): 45.5 - 4 = 41.5 in: $6,225
    assert brute == {0: 300.0, 1: 300.0, 2: 900.0, 3: 2625.0, 4: 6225.0}
    assert got[1][1] == ["4"]  # the step's removals: tree 5 is removed already


def test_plan_under_la_grange_park_refuses_an_amount_not_held(tmp_path):
    from treecalc.ingest import read_survey
    from treecalc.studies.plan import plan

    f = tmp_path / "lgp.csv"
    f.write_text("Tag,Species,DBH (in),Action\n1,Acer rubrum,10,remove\n2,Acer rubrum,5,remove\n")
    # 1 tree planted: removing nothing costs nothing ($0.00, nothing to replace); removing tree 1 (10 / 2.5 = 4 trees,
    # 3 in lieu), tree 2 (5 / 2.5 = 2, 1 in lieu) or both (15 / 2.5 = 6, 5 in lieu) leaves trees in lieu whose
    # "local nursery price" is not held: those steps are not priced, each saying why, never $0.00
    p = plan(read_survey(f), jurisdiction="la_grange_park", plantable=1)
    assert {s.k: s.in_lieu_usd for s in p.frontier} == {0: 0.0}
    assert sorted(p.unpriced) == [1, 2]
    assert all("not held for La Grange Park: see § 95.23(I)" in why for why in p.unpriced.values())
    # every tree planted: nothing paid, each step costs $0.00 and the cheapest set is exact
    p = plan(read_survey(f), jurisdiction="la_grange_park", plantable=10)
    assert {s.k: s.in_lieu_usd for s in p.frontier} == {0: 0.0, 1: 0.0, 2: 0.0}


def test_the_statement_says_the_percentage_is_of_the_dbh_removed(tmp_path):
    import io

    import openpyxl

    from treecalc.assessment import assess
    from treecalc.report.statement import statement_bytes

    # La Grange Park § 95.23(I) replaces 100 % of the DBH removed: 10 + 8 = 18 caliper inches, no value basis
    f = tmp_path / "lgp.csv"
    f.write_text("Tag,Species,DBH (in),Action\n1,Acer rubrum,10,remove\n2,Quercus rubra,8,remove\n")
    a = assess(str(f), jurisdiction="la_grange_park", plantable=1, on="2026-03-01")
    rows = list(openpyxl.load_workbook(io.BytesIO(statement_bytes(a)))["Replacement plan"].iter_rows(values_only=True))
    items = {r[0]: r[1] for r in rows if r[0]}
    assert items["Percentage of DBH removed"] == 100.0 and items["Inches removed"] == 18.0
    assert "Percentage of removed value" not in items and "Value basis" not in items
    assert not [r for r in rows if "value basis" in str(r[0]).lower()]


def test_the_total_cites_its_one_section_once(tmp_path):
    # La Grange Park's planting and payment in lieu are both § 95.23(I): the total's cell cites it once, not
    # "§ 95.23(I) + § 95.23(I)"
    import openpyxl

    from treecalc.cli import main

    src = tmp_path / "lot.csv"
    src.write_text("Tag,Species,DBH (in),Action\n1,Acer rubrum,14,Remove\n2,Quercus palustris,30,Remove\n")
    out = tmp_path / "s.xlsx"
    assert main(["assess", str(src), "--jurisdiction", "la-grange-park", "--plantable", "3", "--out", str(out)]) == 0
    rows = [r for r in openpyxl.load_workbook(out)["Summary"].iter_rows(values_only=True) if "Total out of pocket" in r]
    assert rows and rows[0][0] == "§ 95.23(I)", rows
