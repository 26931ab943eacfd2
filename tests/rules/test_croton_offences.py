"""Chapter 208 offences: every offence Chapter 208 defines, 120% only on what was harmed, penalties only on given facts.
The worked lots of §208-18 with §208-22F and §208-29 are data in tests/cases/croton_on_hudson/208_18_offences_and_22F.toml.

Each expected figure is worked out by hand in a comment. Annual values are the National Tree Benefit
Calculator figures, default parameters, worked by hand from the Northeast tables with stormwater at
$0.008/gal: ACRU 3.9 in $74.50, 4.0 in $75.02, 6 in $87.40, 10 in $105.89 + 7.80 = $113.69, 12 in $127.11,
12.1 in $127.78, 14 in $140.52 /yr. Each is the value at OpenTreeMap's $0.0008/gal (72.26, 72.69, 83.28,
105.89, 117.36, 117.93, 128.83) plus 9/10 of its stormwater dollars at $0.008: e.g. 12.1 in = 30.734 cm,
hydro_interception 3.59 + 0.5167 x 3.07 = 5.1762 m3 x 264.172 x 0.008 = $10.94, 117.93 + 0.9 x 10.94 = 127.78;
4.0 in: 0.11 + 0.8333 x 1.34 = 1.2267 m3 -> $2.59, 72.69 + 2.33 = 75.02; 6 in: 2.1633 m3 -> $4.57, 83.28 + 4.12
= 87.40; 14 in: 6.1483 m3 -> $12.99, 128.83 + 11.69 = 140.52.
"""

import json
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from openpyxl import Workbook

from tests.helpers.rules import make_trees
from treecalc.assessment import assess
from treecalc.cli import main
from treecalc.report.json import assessment_json
from treecalc.rules import croton_on_hudson as croton

QUIET = {"subdividable": False, "has_residence": True, "site_plan_required": False}
STOCK = [{"species": "ACRU", "dbh_in": 2, "unit_cost_usd": 450}]


def survey(rows, site=None):
    return SimpleNamespace(
        trees=make_trees(rows),
        rejected=pd.DataFrame(),
        site=dict(site or {}),
        site_assumptions=[],
        warnings=[],
        rows_read=len(rows),
        source={},
    )


def parts(a):
    return {p["section"]: p for p in assessment_json(a)["replacement_parts"]}


def _xlsx(path, trees, site_rows):
    wb = Workbook()
    ws = wb.active
    ws.title = "Trees"
    ws.append(["Tag", "Species", "DBH (in)", "Action", "Slope > 20%"])
    for r in trees:
        ws.append(r)
    if site_rows is not None:
        s = wb.create_sheet("Site")
        s.append(["Field", "Value"])
        for r in site_rows:
            s.append(r)
    wb.save(path)
    return path


def test_permit_held_in_the_site_sheet_means_no_offence(tmp_path):
    # a user's workbook: 2 red maples removed on a slope; the Site sheet says a permit was held.
    trees = [[1, "Acer rubrum", 10, "Stump", "x"], [2, "Red maple", 6, "Removed", "x"]]
    base = [
        ["Jurisdiction", "Croton-on-Hudson"],
        ["subdividable", "no"],
        ["has_residence", "yes"],
        ["site_plan_required", "no"],
    ]
    held = assess(_xlsx(tmp_path / "held.xlsx", trees, base + [["permit_held", "yes"]]), replacement_stock=STOCK)
    assert assessment_json(held)["offences"] == 0 and held.penalties.civil_penalty_max_usd == 0
    assert not held.replacement.required
    # the same workbook without the row: two offences, 10 in tier (2) $1,500 + 6 in tier (1) $500 = $2,000
    not_held = assess(_xlsx(tmp_path / "not.xlsx", trees, base), replacement_stock=STOCK)
    assert not_held.penalties.civil_penalty_max_usd == 2000
    assert any("permit_held" in s or "no tree removal permit is assumed held" in s for s in not_held.assumptions)


def test_unknown_site_field_is_an_error_naming_the_closest(tmp_path, capsys):
    path = _xlsx(tmp_path / "s.xlsx", [[1, "Acer rubrum", 10, "Removed", ""]], [["subdividible", "no"]])
    assert main(["assess", str(path)]) == 2
    assert "did you mean 'subdividable'" in capsys.readouterr().err
    path = _xlsx(tmp_path / "t.xlsx", [[1, "Acer rubrum", 10, "Removed", ""]], None)
    assert main(["assess", str(path), "--site", "permitheld=yes"]) == 2
    assert "did you mean 'permit_held'" in capsys.readouterr().err


def test_removed_while_an_application_was_pending_no_flags():
    # §208-20F: "any tree regulated by this chapter" (every species, any size): a 6 in tree with no flags
    # removed while an application was pending is an offence, tier (1) $500. Its harm is the offence itself,
    # so B(7)'s pending clause does not double it again: $500; criminal $250.
    one = [{"species_code": "ACRU", "dbh_in": 6}]
    a = assess(survey(one, {**QUIET, "application_pending": "yes"}), replacement_stock=STOCK)
    assert a.penalties.per_tree[0]["offence_sections"] == "§208-20F"
    assert a.penalties.civil_penalty_max_usd == 500 and a.penalties.criminal_fine_max_usd == 250
    assert not a.penalties.doubled
    # the literal reading (B(7) doubles the one tree's own fine) is given beside it, not applied: 2 x $500 = $1,000
    assert any("Read to the letter" in n and "$1,000" in n for n in a.penalties.notes)
    literal = [x for x in a.lines if "harmed while an application is pending" in x["item"]]
    assert [(x["section"], x["value"]) for x in literal] == [("§208-29B(7)", 1000)]
    # with a second such tree, a further tree was harmed while pending: doubled, 2 x $500 x 2 = $2,000
    a = assess(survey(one * 2, QUIET), application_pending=True, replacement_stock=STOCK)
    assert a.penalties.civil_penalty_max_usd == 2000 and a.penalties.doubled
    # both readings agree here: no other-reading figure
    assert not any("Read to the letter" in n for n in a.penalties.notes)
    assert any("pending" in r for r in a.penalties.doubling_reasons)
    # nothing pending: a lawful removal (no trigger), no offence, nothing to replace
    a = assess(survey(one, QUIET), replacement_stock=STOCK)
    assert a.penalties.offences == 0 and not a.replacement.required


def test_no_site_facts_at_all_gives_conditional_offences_only():
    # 3 ACRU 12 in removed, no site facts: only §208-19A(2) (8 in or more on a parcel assumed subdividable,
    # without a residence, needing site plan approval) makes them need a permit -> conditional offences.
    # maxima (definite) $0; conditional civil 3 x $1,500 (tier (2)) = $4,500, criminal 3 x $250 = $750.
    rows = [{"species_code": "ACRU", "dbh_in": 12}] * 3
    a = assess(survey(rows), replacement_stock=STOCK)
    j = assessment_json(a)
    assert j["civil_penalty_max_usd"] == 0 and j["criminal_fine_max_usd"] == 0
    assert j["civil_penalty_conditional_usd"] == 4500 and j["criminal_fine_conditional_usd"] == 750
    assert j["offences_conditional"] == 3 and j["offences_definite"] == 0
    assert all(r["status"] == "conditional" and "subdividable" in r["depends_on"] for r in j["offence_rows"])
    # the permit preview keeps the reading that needs a permit. §208-22F is charged on definite offences
    # only: nothing is required; what it would require is shown apart, 3 x 127.11 = 381.33 x 1.2 = 457.596
    # -> up $457.60 if the parcel facts are established (before: charged, "Replacement required: yes")
    assert j["permit_required"] and parts(a) == {} and j["replacement_required"] is False
    assert j["replacement_conditional"]["required_value_usd"] == pytest.approx(457.60)
    assert any("jurisdiction not given" in s for s in a.assumptions)
    # 4 removals without a permit are clear cutting (§208-17, §208-19A(8)) whatever the parcel facts: definite.
    # 3 x 12 in tier (2) + 1 x 6 in tier (1), doubled (more than 3; clear cutting): (4,500 + 500) x 2 = $10,000
    a = assess(survey(rows + [{"species_code": "ACRU", "dbh_in": 6}]), replacement_stock=STOCK)
    assert a.penalties.civil_penalty_max_usd == 10000 and a.penalties.civil_penalty_conditional_usd == 0
    # 2 x 12 in removed (conditional) + 2 x 6 in topped (definite, §208-18D): definite alone 2 x $500 = $1,000,
    # not doubled; if the assumed facts hold, 4 offences double all: (2 x 1,500 + 2 x 500) x 2 = $8,000,
    # so the conditional offences add 8,000 - 1,000 = $7,000
    mixed = rows[:2] + [{"species_code": "ACRU", "dbh_in": 6, "action": "topped"}] * 2
    a = assess(survey(mixed), replacement_stock=STOCK)
    assert a.penalties.civil_penalty_max_usd == 1000 and not a.penalties.doubled
    assert a.penalties.civil_penalty_conditional_usd == 7000
    assert any("would also double" in n for n in a.penalties.notes)


def test_transplant_is_not_a_removal():
    rows = [{"species_code": "ACRU", "dbh_in": 12, "action": "transplant", "slope_over_20pct": True}]
    a = assess(survey(rows, QUIET))
    assert not a.permit.required and a.penalties.offences == 0 and not a.replacement.required


def test_penalties_never_wrap_int64():
    # a landmark in a conservation area (tier (6) $7,500) topped (§208-18D) while an application was pending
    # (a harm that broke another provision too) -> doubled $15,000 per day. The library takes the days of the
    # --days range (1 to 36,500): at the top, 36,500 x 15,000 = 547,500,000 civil, 36,500 x 5,000 = 182,500,000
    # criminal; beyond it the option is refused, naming it, before anything is multiplied
    rows = [{"species_code": "ACRU", "dbh_in": 6, "action": "topped", "conservation_area": True}]
    a = assess(survey(rows, {**QUIET, "application_pending": True}), continuing_days=36_500, replacement_stock=STOCK)
    assert a.penalties.civil_penalty_max_usd == 547_500_000
    assert a.penalties.criminal_fine_max_usd == 182_500_000
    assert a.penalties.per_tree[0]["max_usd"] == 547_500_000
    json.dumps(assessment_json(a))
    with pytest.raises(ValueError, match=r"continuing_days\) must be a whole number from 1 to 36,500"):
        assess(survey(rows, QUIET), continuing_days=9007199254740991, replacement_stock=STOCK)
    # the rules module itself multiplies any day count exactly (Python ints past int64):
    # 9,007,199,254,740,991 days x 15,000 = 135,107,988,821,114,865,000 (> 2**63)
    assert croton._times_days(np.array([15000]), 9007199254740991).tolist() == [135107988821114865000]


def test_survey_without_species_codes_is_resolved_by_name():
    # issue 15: a survey whose trees carry names only (no species_code column) is assessed, not an ImportError
    t = make_trees([{"species": "Acer rubrum", "dbh_in": 12, "action": "remove"}]).drop(columns="species_code")
    a = assess(
        SimpleNamespace(
            trees=t, rejected=pd.DataFrame(), site=dict(QUIET), site_assumptions=[], warnings=[], rows_read=1, source={}
        )
    )
    assert a.trees["species_code"].tolist() == ["ACRU"] and a.trees["value_usd"].tolist() == [127.11]
    t2 = make_trees([{"species": "Not a tree", "dbh_in": 12}]).drop(columns="species_code")
    with pytest.raises(ValueError, match="species not recognised"):
        assess(
            SimpleNamespace(
                trees=t2, rejected=pd.DataFrame(), site={}, site_assumptions=[], warnings=[], rows_read=1, source={}
            )
        )


def test_outputs_carry_the_notes_that_apply():
    rows = [
        {"species_code": "ACRU", "dbh_in": 14, "action": "topped"},
        {"species_code": "ACRU", "dbh_in": 24, "action": "remove", "street_tree": True},
    ]
    a = assess(survey(rows, QUIET), replacement_stock=STOCK)
    text = " ".join(f"{ln['section']} {ln['item']} {ln['value']} {ln['note']}" for ln in a.lines)
    for sec in ("§208-29F", "§208-21F", "§208-20C", "§208-14", "§208-22G"):
        assert sec in text, sec
    assert any("§208-14" in n for n in a.permit.notes)


def test_wesley_hills_normal_farming_and_conditional_fines():
    # 12 in removed on a lot whose facts are given: vacant (no residence) -> (c) definite: $5,000.
    site = {"has_residence": False, "lot_area_acres": 0.5, "one_family_co_issued": True}
    rows = [{"species_code": "ACRU", "dbh_in": 12, "within_20ft_of_lot_line": False}]
    a = assess(survey(rows, site), jurisdiction="wesley-hills")
    assert assessment_json(a)["fine_max_usd"] == 5000 and assessment_json(a)["fine_conditional_usd"] == 0
    # §95-3D(3) normal farming use given: the chapter does not limit it -> no permit, no fine
    a = assess(survey(rows, {**site, "normal_farming": "yes"}), jurisdiction="wesley_hills")
    assert assessment_json(a)["fine_max_usd"] == 0 and not a.permit.required
    assert a.permit.exceptions_applied[0]["section"] == "§95-3D(3)"
    assert all("Ch. 95" in ln["item"] or not ln["item"].startswith("Clearing") for ln in a.lines)


def test_cli_json_and_statement_show_definite_conditional_and_parts(tmp_path, capsys):
    # a user's workbook without a Site sheet: trees 1-2 (12 in, removed) need a permit only through the
    # assumed §208-19A(2) parcel facts -> conditional; tree 3 (14 in, topped) is definite (§208-18D);
    # trees 4-6 (6 in on a slope) are proposed removals under a permit for three -> §208-22A 90%.
    import io

    import openpyxl

    rows = [
        [1, "Acer rubrum", 12, "Removed", ""],
        [2, "Acer rubrum", 12, "Stump", ""],
        [3, "Acer rubrum", 14, "Topped", ""],
    ] + [[i, "Red maple", 6, "Remove", "x"] for i in (4, 5, 6)]
    path = _xlsx(tmp_path / "survey.xlsx", rows, None)
    out = tmp_path / "statement.xlsx"
    assert main(["assess", str(path), "--json", "--out", str(out)]) == 0
    j = json.loads(capsys.readouterr().out)
    # definite: tree 3 tier (3) $3,000 (one offence, not doubled); conditional: trees 1-2 tier (2) 2 x $1,500;
    # with them 3 offences, still not more than three -> +$3,000 conditional
    assert j["civil_penalty_max_usd"] == 3000 and j["civil_penalty_conditional_usd"] == 3000
    assert j["fine_conditional_usd"] is None and j["fine_max_usd"] is None
    # §208-22F on the definite offence only (tree 3): 140.52 x 1.2 = 168.624 -> 168.63; §208-22A: 3 x 87.40 =
    # 262.20 x 0.9 = 235.98; required 168.63 + 235.98 = 404.61. Trees 1-2 (conditional) apart: 2 x 127.11 =
    # 254.22 x 1.2 = 305.064 -> 305.07 if established. (Before: all three in §208-22F, 394.74 x 1.2 -> 473.69,
    # required 709.67.)
    p = {x["section"]: x for x in j["replacement_parts"]}
    assert p["§208-22F"]["required_value_usd"] == 168.63 and p["§208-22A"]["required_value_usd"] == 235.98
    assert j["required_value_usd"] == pytest.approx(404.61)
    assert (j["replacement_conditional"]["trees"], j["replacement_conditional"]["required_value_usd"]) == (2, 305.07)
    assert set(p["§208-22F"]) == {
        "section",
        "percent",
        "trees",
        "value_usd",
        "required_value_usd",
        "value_cents",
        "required_value_cents",
    }
    # the same amounts in exact cents: 140.52 -> 14052, 168.63 -> 16863
    assert (p["§208-22F"]["value_cents"], p["§208-22F"]["required_value_cents"]) == (14052, 16863)
    wb = openpyxl.load_workbook(io.BytesIO(out.read_bytes()), read_only=True)
    pen = " ".join(str(c) for row in wb["Penalties"].iter_rows(values_only=True) for c in row if c)
    assert "Definite offences (facts given)" in pen and "Conditional offences" in pen
    assert "§208-18D" in pen and "subdividable" in pen
    rep = " ".join(str(c) for row in wb["Replacement plan"].iter_rows(values_only=True) for c in row if c)
    assert "Replacement parts" in rep and "§208-22F" in rep and "§208-22A" in rep


def test_per_tree_permit_and_department_approval_columns():
    # tree 1 removed on a slope with its own permit (column permit = yes): authorised, no offence;
    # tree 2 the same without: an offence, 6 in tier (1) $500; tree 3 a street tree removed with the
    # Department's approval (per tree) and no trigger: no offence. Civil $500.
    rows = [
        {"species_code": "ACRU", "dbh_in": 6, "slope_over_20pct": True, "permit": "yes"},
        {"species_code": "ACRU", "dbh_in": 6, "slope_over_20pct": True, "permit": "no"},
        {"species_code": "ACRU", "dbh_in": 6, "street_tree": True, "department_approval": True},
    ]
    a = assess(survey(rows, QUIET), replacement_stock=STOCK)
    assert [r["tag"] for r in a.penalties.per_tree] == ["2"] and a.penalties.civil_penalty_max_usd == 500
    assert {r["tag"]: r["reason"] for r in a.penalties.not_offences}["1"].startswith("authorised")


def test_cli_days_never_print_a_negative_penalty(tmp_path, capsys):
    # issue 10: one 6 in tree removed on a slope, tier (1) $500 a day x 9,007,199,254,740,991 days
    # = $4,503,599,627,370,495,500 civil; $250 x days = $2,251,799,813,685,247,750 criminal
    path = _xlsx(
        tmp_path / "s.xlsx",
        [[1, "Acer rubrum", 6, "Removed", "x"]],
        [["subdividable", "no"], ["has_residence", "yes"], ["site_plan_required", "no"]],
    )
    # the command line refuses a count of days beyond its documented range (issue 10: 1 to 36,500) ...
    assert main(["assess", str(path), "--json", "--days", "9007199254740991"]) == 2
    assert "--days must be a whole number from 1 to 36,500" in capsys.readouterr().err
    # ... and the library refuses it alike, naming the option (a URL or a project file goes through it)
    with pytest.raises(ValueError, match=r"\(continuing_days\) must be a whole number from 1 to 36,500"):
        assess(str(path), continuing_days=9007199254740991)
