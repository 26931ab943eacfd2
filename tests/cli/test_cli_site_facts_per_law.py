"""Site facts and flags not surveyed, said as the law applied reads them: `treecalc survey` lists only the facts of
the law the site names, in its words; `treecalc assess` says one thing of a flag it takes as yes when not surveyed;
a Site sheet fact only another law reads is said as not used (a warning), never dropped without a word."""

import csv
import json

from openpyxl import Workbook

import treecalc
from treecalc.cli import main
from treecalc.ingest.site import law_site_why
from treecalc.law import registry as jurisdictions

WH = ["--site", "jurisdiction=wesley-hills"]


def no_lot_line(tmp_path):
    """Two maples removed (7 in, 12 in), no lot-line column: as the reviewer's w3_nolotline.csv."""
    path = tmp_path / "w3.csv"
    with open(path, "w", newline="", encoding="utf-8") as f:
        rows = [["Tag", "Common Name", "DBH (in.)", "Action"], ["L1", "Red Maple", "7", "Removed"]]
        csv.writer(f).writerows([*rows, ["L2", "Sugar Maple", "12", "Removed"]])
    return str(path)


def run_json(capsys, argv):
    assert main(argv) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def lot_line_lines(lines):
    return [a for a in lines if "within_20ft_of_lot_line" in a]


def test_assess_says_one_thing_of_the_lot_line_not_surveyed(tmp_path, capsys):
    site = [*WH, "--site", "has_residence=true", "--site", "lot_area_acres=0.5"]
    j = run_json(capsys, ["assess", no_lot_line(tmp_path), "--json", *site])
    said = lot_line_lines(j["assumptions"])
    # one line: the §95-3A(1)(e) reading of the rules (both trees 6 in or more, so both counted)
    assert len(said) == 1 and "2 tree(s)" in said[0] and "assumed within" in said[0], said
    assert not any("taken as no" in a for a in said)
    # each removal conditional on the lot line: 2 x $5,000 = $10,000, none definite
    assert (j["fine_conditional_usd"], j["fine_max_usd"]) == (10000, 0)


def test_survey_says_the_law_decides_a_flag_not_surveyed(tmp_path, capsys):
    path = no_lot_line(tmp_path)
    j = run_json(capsys, ["survey", path, "--json"])
    line = next(a for a in j["site_assumptions"] if a.startswith("not surveyed (no column)"))
    assert "taken as no for every tree" not in line and "decided when the survey is assessed" in line
    assert "Wesley Hills Chapter 95 takes within_20ft_of_lot_line as yes" in line
    # the law known: what it does, the lot line as yes; Chapter 208's flags (street tree, ...) it does not read,
    # so no line takes them as no
    j = run_json(capsys, ["survey", path, "--json", *WH])
    said = lot_line_lines(j["site_assumptions"])
    assert len(said) == 1 and "taken as yes for every tree" in said[0] and "§95-3A(1)(e)" in said[0]
    assert not any("taken as no" in a or "street_tree" in a for a in j["site_assumptions"])


def test_survey_lists_only_the_facts_of_the_law_named(tmp_path, capsys):
    path = no_lot_line(tmp_path)
    j = run_json(capsys, ["survey", path, "--json", *WH, "--site", "has_residence=true"])
    listed = {a.split(" not given")[0] for a in j["site_assumptions"] if " not given" in a}
    record = jurisdictions.get("wesley-hills")
    # Chapter 95's facts and the ones every law reads, but has_residence (given), the jurisdiction (given) and the
    # crs (what x/y columns are in: the survey has none)
    assert listed == (set(record.site_facts) | {"climate_zone"}) - {"has_residence"}
    text = " ".join(j["site_assumptions"])
    assert "§208" not in text and "subdividable" not in text and "Croton" not in text
    # in Chapter 95's words ([site_why] of data/readings/wesley_hills.toml, filled from the law)
    why = law_site_why("wesley_hills")
    assert f"one_family_co_issued not given: {why['one_family_co_issued']}" in j["site_assumptions"]
    # the law not known: every law's facts, and the default law said as what an assessment applies
    j = run_json(capsys, ["survey", path, "--json"])
    first = j["site_assumptions"][0]
    assert first.startswith("jurisdiction not given: an assessment applies Croton-on-Hudson Chapter 208")
    assert any(a.startswith("subdividable not given") for a in j["site_assumptions"])


def site_sheet_survey(tmp_path):
    wb = Workbook()
    ws = wb.active
    ws.title = "Trees"
    for r in (["Tag", "Species", "DBH (in)", "Action"], ["1", "Acer rubrum", "7", "Removed"]):
        ws.append(r)
    s = wb.create_sheet("Site")
    for r in (["jurisdiction", "wesley-hills"], ["prior_removals_12mo", 3], ["prior_violation_within_year", "yes"]):
        s.append(r)
    path = tmp_path / "site.xlsx"
    wb.save(path)
    return str(path)


def test_a_site_sheet_fact_the_law_does_not_read_is_said(tmp_path, capsys):
    path = site_sheet_survey(tmp_path)
    j = run_json(capsys, ["assess", path, "--json"])
    said = [w for w in j["warnings"] if "prior_removals_12mo" in w]
    assert len(said) == 1, j["warnings"]
    w = said[0]
    assert "prior_violation_within_year" in w and "not by Wesley Hills Chapter 95" in w and "not used" in w
    assert "§208-19A(1)" in w and "§208-29A" in w
    # read by `treecalc survey`: said there too, and the Site sheet's law's facts listed alone
    j = run_json(capsys, ["survey", path, "--json"])
    assert [x for x in j["warnings"] if "prior_removals_12mo" in x] == [w]
    assert not any("§208" in x for x in j["site_assumptions"]), j["site_assumptions"]
    # the same facts through the library's site=: the same warning (the command line refuses them as --site)
    a = treecalc.assess(path, site={"subdividable": "no"})
    assert any("subdividable (§208-19A(2))" in x and "not used" in x for x in a.warnings), a.warnings
    # a fact the law applied reads is not said
    a = treecalc.assess(path, site={"lot_area_acres": "0.5"})
    assert not any("lot_area_acres" in x for x in a.warnings)
