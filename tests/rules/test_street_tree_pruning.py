"""A street tree pruned short of excessive pruning without the Department's written approval is an offence (§208-5C).

Chapter 208 (/work/shared/ordinances/002_*.txt; data/law/croton_on_hudson/ch208_trees.toml):
§208-5C "No person or entity, other than the Village of Croton-on-Hudson or its designated agents, shall spray,
fertilize, treat, prune, remove, cut, or otherwise disturb any street or public tree ... without written approval
by the Department." §208-29A: "who otherwise violates any of the provisions of this chapter shall be guilty of an
offense punishable by a fine of not more than $250" (a §208-5C breach is no §208-18 violation: not the $5,000).
§208-29B(4) "Street trees ...: up to $4,000." §208-17 EXCESSIVE PRUNING is 25 % or more: 20 % is not, so no
§208-18D and no §208-11 topping; §208-22F replaces trees "cut down, removed, topped, excessively pruned, injured,
damaged ...", not a tree pruned: no replacement. §208-29B(7) doubles on trees "cut down, removed, topped,
excessively pruned, injured, damaged ...": a pruning is none of them.

Worked by hand, one 10 in red maple, a street tree, "Pruned 20%", on a flat house lot:
- approval given no: one definite offence, §208-5C; civil §208-29B(4) up to $4,000; criminal §208-29A $250;
- approval given yes: authorised, $0;
- approval not given (no site fact, no cell): the offence rests on it: conditional, $4,000 civil and $250
  criminal summed apart, $0 definite;
- a private tree (street tree: no) pruned 20%: pruning no law forbids, $0;
- at 30 % the same street tree is excessively pruned (§208-18D, §208-11, §208-5C): $4,000 and $5,000 (unchanged).
Before, "Pruned 20%" on a street tree without approval was read as retained: $0.
"""

from __future__ import annotations

import json

import openpyxl
import pypdf

from treecalc.assessment import assess
from treecalc.cli import main
from treecalc.ingest import read_survey
from treecalc.law import entry
from treecalc.report.json import assessment_json

FLAT_HOUSE_LOT = {"subdividable": False, "has_residence": True, "site_plan_required": False}
STOCK = [{"species": "ACRU", "dbh_in": 2, "unit_cost_usd": 450}]
HEADER = "Tag,Species,DBH (in),Action,Street tree\n"


def survey(rows: str):
    return read_survey((HEADER + rows).encode("utf-8"), filename="street_trees.csv")


def figures(j):
    return (
        j["offences_definite"],
        j["offences_conditional"],
        j["civil_penalty_max_usd"],
        j["criminal_fine_max_usd"],
        j["civil_penalty_conditional_usd"],
        j["criminal_fine_conditional_usd"],
    )


def test_the_law_file_holds_the_section_and_its_words():
    e = entry("croton_on_hudson", "conditions.street_tree_pruning_min_percent")
    assert (e.section, e.value, e.operator) == ("§208-5C", 0, ">")
    assert "prune, remove, cut, or otherwise disturb any street or public tree" in e.text
    assert "without written approval by the Department" in e.text


def test_street_tree_pruned_20_percent_without_approval_is_a_208_5c_offence():
    s = survey("S1,Red maple,10,Pruned 20%,yes\n")
    a = assess(s, site={**FLAT_HOUSE_LOT, "department_approval": False}, replacement_stock=STOCK)
    j = assessment_json(a)
    # one definite offence: $4,000 civil (§208-29B(4)), $250 criminal (§208-29A), no doubling, no replacement
    assert figures(j) == (1, 0, 4000, 250, 0, 0)
    row = j["offence_rows"][0]
    assert (row["tag"], row["status"], row["offence_sections"], row["tier"]) == (
        "S1",
        "definite",
        "§208-5C",
        "§208-29B(4)",
    )
    assert (row["max_usd"], row["criminal_max_usd"], row["criminal_section"]) == (4000, 250, "§208-29A (§208-5C)")
    assert not j["civil_penalty_doubled"]
    assert j["replacement_required"] is False and "replacement_conditional" not in j
    assert "department_approval" not in j["site_facts_assumed"]


def test_approval_given_or_a_private_tree_is_no_offence():
    s = survey("S1,Red maple,10,Pruned 20%,yes\n")
    approved = assessment_json(assess(s, site={**FLAT_HOUSE_LOT, "department_approval": True}, replacement_stock=STOCK))
    assert figures(approved) == (0, 0, 0, 0, 0, 0)
    private = survey("P1,Red maple,10,Pruned 20%,no\n")
    j = assessment_json(assess(private, site={**FLAT_HOUSE_LOT, "department_approval": False}, replacement_stock=STOCK))
    assert figures(j) == (0, 0, 0, 0, 0, 0)


def test_approval_not_given_makes_the_offence_conditional():
    s = survey("S1,Red maple,10,Pruned 20%,yes\n")
    j = assessment_json(assess(s, site=FLAT_HOUSE_LOT, replacement_stock=STOCK))
    # $4,000 and $250 rest on the approval not given: apart from the maxima, which stay $0
    assert figures(j) == (0, 1, 0, 0, 4000, 250)
    dep = j["offence_rows"][0]["depends_on"]
    assert "department_approval" in dep and "§208-5C" in dep
    assert "department_approval" in j["site_facts_assumed"]
    # a per-tree approval cell "no" gives it: definite
    cells = read_survey(
        b"Tag,Species,DBH (in),Action,Street tree,Department approval\nS1,Red maple,10,Pruned 20%,yes,no\n",
        filename="street_trees.csv",
    )
    a = assess(cells, site=FLAT_HOUSE_LOT, replacement_stock=STOCK)
    assert figures(assessment_json(a)) == (1, 0, 4000, 250, 0, 0)
    # the tree's own cell gives the approval: it is not said to be assumed
    assert any("written approval is assumed not given" in x for x in j["assumptions"])
    assert not any("written approval is assumed not given" in x for x in a.assumptions), a.assumptions


def test_at_30_percent_the_street_tree_is_still_excessively_pruned():
    s = survey("S1,Red maple,10,Pruned 30%,yes\n")
    j = assessment_json(assess(s, site={**FLAT_HOUSE_LOT, "department_approval": False}, replacement_stock=STOCK))
    # §208-18D (and §208-11, §208-5C): tier (4) $4,000; a violation of §208-18: $5,000
    assert figures(j) == (1, 0, 4000, 5000, 0, 0)
    assert j["offence_rows"][0]["offence_sections"] == "§208-18D; §208-11; §208-5C"


def test_statement_pdf_and_text_name_the_offence_and_its_section(tmp_path, capsys):
    path = tmp_path / "street.csv"
    path.write_text(HEADER + "S1,Red maple,10,Pruned 20%,yes\n", encoding="utf-8")
    site = [f"--site={k}={'yes' if v else 'no'}" for k, v in {**FLAT_HOUSE_LOT, "department_approval": False}.items()]
    xlsx, pdf = tmp_path / "s.xlsx", tmp_path / "s.pdf"
    assert main(["assess", str(path), *site, "--out", str(xlsx), "--pdf", str(pdf)]) == 0
    text = capsys.readouterr().out
    assert "§208-29B(4)      Civil penalty tier (definite offences): 1 tree  [up to $4,000 per tree]" in text
    assert "Criminal fine, maximum: $250" in text and "§208-29A (§208-5C)" in text
    # the statement's Penalties sheet: the tree, its section, its tier and amounts
    wb = openpyxl.load_workbook(xlsx)
    rows = [[c for c in r if c is not None] for r in wb["Penalties"].iter_rows(values_only=True)]
    tree = [r for r in rows if r and r[0] == "S1"]
    assert tree and "§208-5C" in tree[0] and "§208-29B(4)" in tree[0] and 4000 in tree[0] and 250 in tree[0]
    # the PDF names the section beside the offence
    words = "\n".join(p.extract_text() for p in pypdf.PdfReader(pdf).pages)
    assert "§208-5C" in words and "§208-29A (§208-5C)" in words.replace("\n", " ")
    # the JSON, through the CLI
    assert main(["assess", str(path), *site, "--json"]) == 0
    j = json.loads(capsys.readouterr().out)
    assert figures(j) == (1, 0, 4000, 250, 0, 0)


def _street_tier_and_fine():
    """§208-29B(4) street trees' civil maximum and §208-29A's criminal fine, as data/law holds them."""
    from treecalc.law.loader import resolved

    tiers = resolved("croton_on_hudson")["penalty"]["civil_tiers"]
    (street,) = [t for t in tiers if t["section"] == "§208-29B(4)"]
    return street["usd"], entry("croton_on_hudson", "criminal.per_tree_usd").value


def test_a_street_tree_whose_action_is_prune_is_pruned_for_208_5c():
    # "Prune" states a pruning without its share. §208-5C forbids any pruning of a street tree without the
    # Department's written approval, whatever the share (the law's entry: more than 0 %), so the offence does not
    # wait for the share; §208-17's excessive pruning (25 % or more) is not read into a share not given: no §208-18D.
    # By hand, one 10 in red maple, street tree, "Prune", approval given no: one definite §208-5C offence,
    # civil §208-29B(4) up to $4,000 (street trees), criminal §208-29A $250; no doubling (one tree), no replacement.
    civil, criminal = _street_tier_and_fine()
    assert (civil, criminal) == (4000, 250)
    s = survey("S1,Red maple,10,Prune,yes\n")
    j = assessment_json(assess(s, site={**FLAT_HOUSE_LOT, "department_approval": False}, replacement_stock=STOCK))
    assert figures(j) == (1, 0, civil, criminal, 0, 0)
    rows = j["offence_rows"]
    assert len(rows) == 1
    assert (rows[0]["tag"], rows[0]["status"], rows[0]["offence_sections"]) == ("S1", "definite", "§208-5C")
    assert j["replacement_required"] is False
    # approval not given: the same figures rest on it, conditional; approval yes: authorised, $0
    j = assessment_json(assess(s, site=FLAT_HOUSE_LOT, replacement_stock=STOCK))
    assert figures(j) == (0, 1, 0, 0, civil, criminal)
    assert "department_approval" in j["offence_rows"][0]["depends_on"]
    j = assessment_json(assess(s, site={**FLAT_HOUSE_LOT, "department_approval": True}, replacement_stock=STOCK))
    assert figures(j) == (0, 0, 0, 0, 0, 0)
    # a per-tree approval cell "no" gives it: definite
    cells = read_survey(
        b"Tag,Species,DBH (in),Action,Street tree,Department approval\nS1,Red maple,10,Prune,yes,no\n",
        filename="street_trees.csv",
    )
    assert figures(assessment_json(assess(cells, site=FLAT_HOUSE_LOT, replacement_stock=STOCK))) == (
        1,
        0,
        civil,
        criminal,
        0,
        0,
    )


def test_a_private_tree_to_prune_and_a_street_tree_retained_stay_0():
    s = survey("P1,Red maple,10,Prune,no\nS2,Red maple,10,Retain,yes\n")
    j = assessment_json(assess(s, site={**FLAT_HOUSE_LOT, "department_approval": False}, replacement_stock=STOCK))
    assert figures(j) == (0, 0, 0, 0, 0, 0)
    assert j["offence_rows"] == [] or all(r["status"] not in ("definite", "conditional") for r in j["offence_rows"])
