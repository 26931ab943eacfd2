"""§208-22F (120 %) is charged only on definite offences; a conditional offence's replacement is shown apart.

A fact that was not given never creates a charge: a tree whose offence rests on parcel facts not given
(§208-19A(2): 8 in or more on a parcel assumed subdividable) carries no replacement; what §208-22F would
require of it is said as "would be required if ... is established". Annual values (National Tree Benefit
Calculator, Northeast tables, default parameters, worked by hand in tests/rules/test_croton_offences.py and
tests/test_assessment.py): ACRU 6 in $87.40, 10 in $113.69, 12 in $127.11, 14 in $140.52; the replacement
stock ACRU 2 in $64.68 /yr.
"""

import pytest

from tests.rules.test_croton_offences import STOCK, parts, survey
from treecalc.assessment import assess
from treecalc.report.json import assessment_json

REMOVED = [
    {"species_code": "ACRU", "dbh_in": 10, "action": "removed"},
    {"species_code": "ACRU", "dbh_in": 14, "action": "removed"},
]
# the parcel facts given: subdividable, so §208-19A(2) needs a permit on the facts given -> definite
GIVEN = {"subdividable": True, "has_residence": False, "site_plan_required": True}
TOPPED = [{"species_code": "ACRU", "dbh_in": 6, "action": "topped"}] * 2  # §208-18D: definite by itself


def _line(a, item):
    return next(ln for ln in a.lines if ln["item"] == item)


def test_conditional_only_lot_charges_no_replacement():
    # 10 in + 14 in removed, no site facts: both conditional (§208-19A(2) parcel facts not given).
    # Before: "Replacement required: yes", §208-22F (113.69 + 140.52) = 254.21 x 1.2 = 305.052 -> $305.06.
    # Now: nothing required; shown apart: 305.06 / 64.68 = 4.72 -> 5 trees of ACRU 2 in would be required.
    a = assess(survey(REMOVED), replacement_stock=STOCK)
    j = assessment_json(a)
    assert j["offences_conditional"] == 2 and j["offences_definite"] == 0
    assert j["replacement_required"] is False and j["replacement_parts"] == []
    assert j["required_value_usd"] == 0.0 and j["fund_alternative_22f_usd"] is None
    assert j["replacement"]["trees_needed"] == 0
    assert _line(a, "Replacement required")["value"] == "no"
    c = j["replacement_conditional"]
    assert (c["section"], c["percent"], c["trees"], c["tags"]) == ("§208-22F", 120.0, 2, ["1", "2"])
    assert (c["value_usd"], c["required_value_usd"], c["trees_needed"]) == (254.21, 305.06, 5)
    assert (c["value_cents"], c["required_value_cents"]) == (25421, 30506)
    # the payment in place of the planting is the one §208-22F would charge were the facts given (below)
    definite = assessment_json(assess(survey(REMOVED, GIVEN), replacement_stock=STOCK))
    assert c["payment_usd"] == definite["fund_alternative_22f_usd"] and c["payment_usd"] > 0
    assert c["text"].startswith(f"§208-22F: 5 trees (or ${c['payment_usd']:,.2f}) would be required if subdividable")
    assert "is established" in c["text"] and "subdividable" in c["depends_on"]
    line = _line(a, "Replacement, conditional offences (if established)")
    assert (line["section"], line["value"], line["unit"], line["note"]) == ("§208-22F", 5, "trees", c["text"])
    not_counted = [ln for ln in a.lines if ln["item"] == "Not counted"]
    assert [(ln["section"], ln["value"]) for ln in not_counted] == [("§208-22F", 2)]
    assert "conditional" in not_counted[0]["note"]
    assert any(r["section"] == "§208-22F, §208-29" and "definite" in r["reading"] for r in j["readings"])


def test_definite_only_lot_is_unchanged():
    # the same trees with the parcel facts given: definite offences, §208-22F 254.21 x 1.2 = $305.06,
    # 305.06 / 64.68 = 4.72 -> 5 trees; no conditional replacement shown
    a = assess(survey(REMOVED, GIVEN), replacement_stock=STOCK)
    j = assessment_json(a)
    assert j["offences_definite"] == 2 and j["offences_conditional"] == 0
    assert j["replacement_required"] is True and j["replacement_percent"] == 120
    assert [(p["section"], p["trees"], p["required_value_usd"]) for p in j["replacement_parts"]] == [
        ("§208-22F", 2, 305.06)
    ]
    assert j["required_value_usd"] == 305.06 and j["replacement"]["trees_needed"] == 5
    assert "replacement_conditional" not in j
    assert not any(ln["item"].startswith("Replacement, conditional") for ln in a.lines)


def test_mixed_lot_charges_definite_and_lists_conditional_apart():
    # 2 x 6 in topped (definite, §208-18D): §208-22F 2 x 87.40 = 174.80 x 1.2 = $209.76 charged,
    # 209.76 / 64.68 = 3.24 -> 4 trees. The 10 in + 14 in removed (conditional) apart: $305.06, 5 trees.
    # Before: one §208-22F part of 4 trees, (174.80 + 254.21) = 429.01 x 1.2 = 514.812 -> $514.82.
    a = assess(survey(TOPPED + REMOVED), replacement_stock=STOCK)
    j = assessment_json(a)
    assert j["replacement_required"] is True
    assert [(p["section"], p["trees"], p["required_value_usd"]) for p in parts(a).values()] == [("§208-22F", 2, 209.76)]
    assert j["required_value_usd"] == 209.76 and j["replacement"]["trees_needed"] == 4
    c = j["replacement_conditional"]
    assert (c["trees"], c["tags"], c["required_value_usd"], c["trees_needed"]) == (2, ["3", "4"], 305.06, 5)
    assert j["fund_alternative_22f_usd"] != c["payment_usd"]
    assert _line(a, "Replacement required")["value"] == "yes"
    assert a.trees["counted"].tolist() == [True, True, False, False]


@pytest.mark.parametrize("violation,counted", [(True, 4), (False, 0)])
def test_the_engineers_finding_still_decides(violation, counted):
    # --violation is a fact given: True puts every harmed tree in §208-22F, False none; nothing conditional
    a = assess(survey(TOPPED + REMOVED), replacement_stock=STOCK, violation=violation)
    j = assessment_json(a)
    assert a.replacement.trees_counted == counted and "replacement_conditional" not in j


def test_statement_shows_the_conditional_replacement_apart(tmp_path):
    # one 10 in red maple removed, no site facts (a user's CSV): conditional. 113.69 x 1.2 = 136.428 ->
    # $136.43; 136.43 / 64.68 = 2.11 -> 3 trees of ACRU 2 in (the default stock). Summary says "no" and the
    # conditional line; the Replacement plan sheet lists the conditional figures in a table of their own.
    import openpyxl

    from treecalc.cli import main

    csv = tmp_path / "one maple.csv"
    csv.write_text("Tag,Species,DBH (in),Action\n1,Red maple,10,removed\n")
    out = tmp_path / "statement.xlsx"
    assert main(["assess", str(csv), "--out", str(out)]) == 0
    wb = openpyxl.load_workbook(out, read_only=True)

    def rows(sheet):
        return [[c for c in r if c is not None] for r in wb[sheet].iter_rows(values_only=True)]

    summary = rows("Summary")
    assert ["§208-22A", "Replacement required", "no"] == [
        str(x) for x in next(r for r in summary if "Replacement required" in r)
    ][:3]
    cond = next(r for r in summary if "Replacement, conditional offences (if established)" in r)
    assert cond[2] == 3 and str(cond[4]).startswith("§208-22F: 3 trees (or $")
    plan = rows("Replacement plan")
    i = next(k for k, r in enumerate(plan) if r and str(r[0]).startswith("§208-22F on conditional offences"))
    head, row = plan[i + 1], plan[i + 2]
    got = dict(zip(head, row))
    assert (got["Trees"], got["Value ($)"], got["Value the replacements must carry ($)"]) == (1, 113.69, 136.43)
    assert got["Replacement trees needed (trees)"] == 3
