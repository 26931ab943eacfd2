"""Chapter 208: what the survey says of the work on each tree — Village work, a tree's own permit — and a
DEC protected native plant read as a penalty tier, not a permit trigger.

Surveys are written here as an arborist would send them (CSV or a workbook with a Site sheet). Penalties
are worked by hand from §208-29A/B (data/law/croton_on_hudson/ch208_trees.toml); the replacement parts are checked by
their trees and percentages, which no price changes.
"""

import pandas as pd
import pytest
from openpyxl import Workbook

from tests.helpers.rules import FLAT_HOUSE_LOT, STOCK, write_csv
from treecalc.assessment import assess
from treecalc.ingest import read_survey
from treecalc.report.json import assessment_json


def write_xlsx(path, rows, site):
    wb = Workbook()
    ws = wb.active
    ws.title = "Trees"
    for r in rows:
        ws.append(r)
    s = wb.create_sheet("Site")
    s.append(["Field", "Value"])
    for k, v in site.items():
        s.append([k, v])
    wb.save(path)
    return path


def parts(a):
    return {p["section"]: p for p in assessment_json(a)["replacement_parts"]}


def by_tag(a, col):
    return dict(zip(a.trees["tag"].astype(str), a.trees[col]))


# --------------------------------------------------------------------------------------------------------
# 1. Work by or for the Village (§208-19B(1), §208-5B/C/D)
# --------------------------------------------------------------------------------------------------------
VILLAGE_ROWS = [
    ["Tag #", "Species", "DBH (in)", "Action", "Street Tree"],
    ["101", "Red maple", "10", "Removed", "Y"],
    ["102", "Red maple", "6", "Removed", "N"],
    ["103", "Red maple", "6", "Removed", "N"],
    ["104", "Red maple", "6", "Removed", "N"],
]


def test_village_work_on_a_street_tree_is_no_offence(tmp_path):
    # The Village's crew removes a 10 in street tree and three 6 in maples on a flat house lot (Site sheet:
    # village_work yes). §208-19B(1): no permit is required for work done by or on behalf of the Village;
    # §208-5B/C/D bind persons "other than the Village ... or its designated agents".
    # Before: 4 removals "without a permit" were read as clear cutting (§208-17) -> B(7) doubling, and the
    # street tree as removed without the Department's approval (§208-5D, §208-14): tier (4) $4,000 x 2 =
    # $8,000 civil, $250 criminal, 120% replacement and building permits withheld (§208-29F).
    # Now: no offence, nothing doubled, nothing to replace, no hold, no clear-cutting trigger line.
    path = write_xlsx(tmp_path / "village.xlsx", VILLAGE_ROWS, {**FLAT_HOUSE_LOT, "village_work": "yes"})
    a = assess(read_survey(path), replacement_stock=STOCK)
    j = assessment_json(a)
    assert (j["civil_penalty_max_usd"], j["criminal_fine_max_usd"]) == (0, 0)
    assert (j["civil_penalty_conditional_usd"], j["criminal_fine_conditional_usd"]) == (0, 0)
    assert j["civil_penalty_doubled"] is False and j["offences"] == 0
    assert j["replacement_parts"] == [] and j["replacement_required"] is False
    assert j["permit_required"] is False and j["permit_exceptions"] == ["§208-19B(1)"]
    sections = [ln["section"] for ln in a.lines]
    assert "§208-29F" not in sections
    assert not any(s.startswith("§208-19A(8)") for s in sections)
    assert not a.permit.clear_cutting and not a.penalties.clear_cutting
    reasons = set(by_tag(a, "not_offence_reason").values())
    assert reasons == {
        "work done by or on behalf of the Village: no permit required (§208-19B(1)), and §208-5B/C/D and "
        "§208-11 bind persons other than the Village; no offence"
    }


@pytest.mark.parametrize("header", ["Village work", "By Village", "Village ROW work"])
def test_village_work_per_tree_column(tmp_path, header):
    # A survey column says which trees the Village's crew took: 101 (a 10 in street tree) and 102, 103.
    # 104 is the owner's own 10 in street tree, removed without the Department's approval: §208-5D, §208-14.
    # The Village's removals are no part of the owner's count (§208-19A(1): 1 removal, not more than 3) nor
    # of clear cutting (1 removal, not 4). 104: tier (4) street tree $4,000, not doubled (1 offence);
    # criminal §208-29A $250. Before: 4 removals made clear cutting and 4 offences, 101 and 104 at $4,000,
    # 102 and 103 at tier (1) $500 (§208-19A(1)), all doubled: (4,000 x 2 + 500 x 2) x 2 = $18,000.
    rows = [
        ["Tag #", "Species", "DBH (in)", "Action", "Street Tree", header],
        ["101", "Red maple", "10", "Removed", "Y", "Yes"],
        ["102", "Red maple", "6", "Removed", "N", "Yes"],
        ["103", "Red maple", "6", "Removed", "N", "yes"],
        ["104", "Red maple", "10", "Removed", "Y", ""],
    ]
    s = read_survey(write_csv(tmp_path / "s.csv", rows))
    assert s.source["column_map"][header] == "village_work"
    a = assess(s, site=FLAT_HOUSE_LOT, replacement_stock=STOCK)
    j = assessment_json(a)
    assert by_tag(a, "offence") == {"101": False, "102": False, "103": False, "104": True}
    assert j["civil_penalty_max_usd"] == 4000 and j["civil_penalty_doubled"] is False
    assert j["criminal_fine_max_usd"] == 250
    assert a.permit.removals_12mo == 1 and not a.permit.clear_cutting
    assert list(parts(a)) == ["§208-22F"] and parts(a)["§208-22F"]["trees"] == 1
    # the site fact is said of the one tree whose cell is blank
    assert any(x.startswith("1 tree(s) harmed with a blank village_work cell") for x in a.assumptions)


# --------------------------------------------------------------------------------------------------------
# 2. A per-tree permit column
# --------------------------------------------------------------------------------------------------------
def test_tree_removed_under_its_own_permit_is_no_offence(tmp_path):
    # A 10 in red maple on a slope over 20% removed under permit TRP-2025-014 (§208-19A(3) needed one; it
    # was held). Before, the column was not read: offence (a), tier (2) $1,500 civil, $250 criminal and 120%
    # replacement (§208-22F). Now: no offence and nothing to replace for it.
    # 202, the same tree with no permit given: tier (2) $1,500 and $250, §208-22F on that one tree.
    # 203-205, three 6 in maples on the slope proposed under permit "yes": the §208-22A part, 3 trees at 90%.
    rows = [
        ["Tag #", "Species", "DBH (in)", "Action", "Slope >20%", "Permit #"],
        ["201", "Red maple", "10", "Removed", "Y", "TRP-2025-014"],
        ["202", "Red maple", "10", "Removed", "Y", ""],
        ["203", "Red maple", "6", "Remove", "Y", "yes"],
        ["204", "Red maple", "6", "Remove", "Y", "yes"],
        ["205", "Red maple", "6", "Remove", "Y", "yes"],
    ]
    s = read_survey(write_csv(tmp_path / "s.csv", rows))
    assert s.source["column_map"]["Permit #"] == "permit"
    a = assess(s, site=FLAT_HOUSE_LOT, replacement_stock=STOCK)
    j = assessment_json(a)
    assert by_tag(a, "offence") == {"201": False, "202": True, "203": False, "204": False, "205": False}
    assert (j["civil_penalty_max_usd"], j["criminal_fine_max_usd"]) == (1500, 250)
    p = parts(a)
    assert (p["§208-22F"]["trees"], p["§208-22F"]["percent"]) == (1, 120)
    assert (p["§208-22A"]["trees"], p["§208-22A"]["percent"]) == (3, 90)
    assert by_tag(a, "exclusion")["201"] == "removed under its own permit: no offence, nothing to replace here §208-22A"
    # 202's blank cell is not given: the permit is assumed not held for it, and said so of it alone
    assert any(x.startswith("1 tree(s) harmed with a blank permit cell") for x in a.assumptions)


def test_one_tree_under_its_own_permit_alone(tmp_path):
    # The case: the one tree, 10 in on a slope, removed under its permit: $0, $0, nothing to replace
    # (before: $1,500 civil, $250 criminal, 120% replacement)
    rows = [
        ["Tag", "Species", "DBH", "Action", "Slope >20%", "Permit"],
        ["1", "Acer rubrum", "10", "Removed", "Y", "Yes"],
    ]
    a = assess(read_survey(write_csv(tmp_path / "s.csv", rows)), site=FLAT_HOUSE_LOT, replacement_stock=STOCK)
    j = assessment_json(a)
    assert (j["civil_penalty_max_usd"], j["criminal_fine_max_usd"], j["replacement_parts"]) == (0, 0, [])
    assert "§208-29F" not in [ln["section"] for ln in a.lines]


@pytest.mark.parametrize("header", ["Permit", "Permit no.", "Permit #", "Permitted", "Under permit"])
def test_permit_column_headers_and_cells(tmp_path, header):
    # yes/no, a permit number (text or a number) = yes; a blank cell is not given (NA), never "no"; a word
    # that is neither keeps the row, not given, with a warning naming the column
    rows = [
        ["Tag", "Species", "DBH", "Action", header],
        ["1", "Acer rubrum", "10", "Removed", "Yes"],
        ["2", "Acer rubrum", "10", "Removed", "No"],
        ["3", "Acer rubrum", "10", "Removed", ""],
        ["4", "Acer rubrum", "10", "Removed", "TRP-2025-014"],
        ["5", "Acer rubrum", "10", "Removed", "2025014"],
        ["6", "Acer rubrum", "10", "Removed", "applied"],
    ]
    s = read_survey(write_csv(tmp_path / "s.csv", rows))
    assert s.source["column_map"][header] == "permit"
    got = [None if pd.isna(v) else bool(v) for v in s.trees["permit"]]
    assert got == [True, False, None, True, True, None]
    assert f"in column {header!r} is not yes/no or a permit number" in s.trees["warnings"].iloc[5]


# --------------------------------------------------------------------------------------------------------
# 3. Threatened or endangered (§208-19A(5)) and DEC protected native plant (§208-29B(6))
# --------------------------------------------------------------------------------------------------------
def dogwood(tmp_path, extra_header=None, extra_cell=None, header="DEC protected native plant"):
    rows = [["Tag", "Species", "DBH (in)", "Action", header], ["7", "Cornus florida", "6", "Removed", "Y"]]
    if extra_header:
        rows[0].append(extra_header)
        rows[1].append(extra_cell)
    s = read_survey(write_csv(tmp_path / "d.csv", rows))
    return assess(s, site=FLAT_HOUSE_LOT, replacement_stock=STOCK)


def test_protected_native_with_no_threatened_column_is_conditional(tmp_path):
    # A 6 in flowering dogwood (exploitably vulnerable in NY: a protected native plant) removed on a flat
    # house lot. §208-29B(6) prices an offence at up to $7,500; it makes none. The only trigger it could have
    # is §208-19A(5), if it is threatened or endangered — not given (no column): a conditional offence,
    # civil tier (6) $7,500 and criminal $250 summed apart; the maxima $0. Before: $7,500 + $250 definite.
    a = dogwood(tmp_path)
    j = assessment_json(a)
    assert (j["civil_penalty_max_usd"], j["criminal_fine_max_usd"]) == (0, 0)
    assert (j["civil_penalty_conditional_usd"], j["criminal_fine_conditional_usd"]) == (7500, 250)
    row = j["offence_rows"][0]
    assert row["status"] == "conditional" and row["tier"] == "§208-29B(6)"
    assert row["depends_on"].startswith("threatened_endangered")
    # no violation is established: §208-29F holds nothing yet
    hold = [ln["value"] for ln in a.lines if ln["section"] == "§208-29F"]
    assert hold == ["withheld only if a conditional offence is established"]


def test_protected_native_not_threatened_is_no_offence(tmp_path):
    # The same dogwood with "T&E" = N: no trigger of §208-19A applies (6 in, flat house lot, 1 removal):
    # no offence, nothing conditional, nothing to replace
    a = dogwood(tmp_path, "T&E", "N")
    j = assessment_json(a)
    assert (j["civil_penalty_max_usd"], j["civil_penalty_conditional_usd"]) == (0, 0)
    assert (j["criminal_fine_max_usd"], j["criminal_fine_conditional_usd"]) == (0, 0)
    assert j["replacement_parts"] == []
    assert j["not_offences"][0]["reason"].startswith("a DEC protected native plant, not threatened or endangered")


@pytest.mark.parametrize("te_header", ["Threatened or endangered", "T&E", "Endangered"])
def test_threatened_or_endangered_is_the_trigger(tmp_path, te_header):
    # T/E = yes: §208-19A(5) needs a permit for any size -> removed without one is a definite offence at the
    # highest tier: (6) $7,500 (a threatened or endangered plant is a protected native plant) over (1) $500;
    # criminal $250; §208-22F 120% on the one tree
    a = dogwood(tmp_path, te_header, "Y")
    j = assessment_json(a)
    assert (j["civil_penalty_max_usd"], j["criminal_fine_max_usd"]) == (7500, 250)
    assert j["permit_triggers"] == ["§208-19A(5)"]
    assert (parts(a)["§208-22F"]["trees"], parts(a)["§208-22F"]["percent"]) == (1, 120)


@pytest.mark.parametrize("header", ["DEC protected native plant", "Protected native", "Exploitably vulnerable"])
def test_protected_native_headers(tmp_path, header):
    a = dogwood(tmp_path, "T&E", "N", header=header)
    assert a.survey.source["column_map"][header] == "protected_native"
    assert a.survey.source["column_map"]["T&E"] == "threatened_endangered"
    assert assessment_json(a)["civil_penalty_conditional_usd"] == 0


def test_engineers_violation_finding_leaves_out_own_permits_and_village_work(tmp_path):
    # --violation (the Engineer's finding) puts every tree already harmed in the §208-22F part, but not a tree
    # removed under its own permit (301) nor the Village's work (303): §208-22F, 120% on 302 alone.
    rows = [
        ["Tag", "Species", "DBH (in)", "Action", "Slope >20%", "Permit", "By Village"],
        ["301", "Red maple", "10", "Removed", "Y", "TRP-7", ""],
        ["302", "Red maple", "10", "Removed", "Y", "", ""],
        ["303", "Red maple", "10", "Removed", "Y", "", "yes"],
    ]
    a = assess(
        read_survey(write_csv(tmp_path / "s.csv", rows)), site=FLAT_HOUSE_LOT, replacement_stock=STOCK, violation=True
    )
    p = parts(a)
    assert list(p) == ["§208-22F"] and (p["§208-22F"]["trees"], p["§208-22F"]["percent"]) == (1, 120)
    assert a.replacement.parts[0].tags == ["302"]
