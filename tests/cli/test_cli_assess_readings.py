"""``treecalc assess`` and ``treecalc survey`` on Chapter 208's wording: the readings carried with their sections
(JSON, the statement's Method sheet), §208-21F as a condition, one reading of ``prior_violation_within_year``,
no Wesley Hills fact in a Croton assessment, and the Village Engineer's §208-22D size waiver as a flag."""

import csv
import io
import json
import re

from openpyxl import load_workbook

from treecalc.cli import main

SITE = ["--site", "subdividable=no", "--site", "has_residence=yes", "--site", "site_plan_required=no"]


def survey_csv(tmp_path, rows):
    path = tmp_path / "survey.csv"
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([["Tag", "Species", "DBH (in)", "Action", "Slope >20%"], *rows])
    return str(path)


def run_json(capsys, argv):
    assert main(argv) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def test_json_carries_the_readings_with_their_sections(tmp_path, capsys):
    path = survey_csv(tmp_path, [["1", "Acer rubrum", "14", "Removed", "Y"]])
    j = run_json(capsys, ["assess", path, "--json", *SITE])
    assert isinstance(j["readings"], list) and j["readings"]
    assert all(set(r) == {"section", "reading"} and r["section"].startswith("§") for r in j["readings"])
    by = {r["section"]: r["reading"] for r in j["readings"]}
    assert "work done by or on behalf of the Village" in by["§208-19B(1)"]
    assert "threatened_endangered" in by["§208-19A(5)"] and "protected_native" in by["§208-19A(5)"]
    assert "prior_violation_within_year" in by["§208-22F"]


def test_21f_licensed_company_is_a_condition_the_authority_may_require(tmp_path, capsys):
    # a 14 in tree removed: over the §208-21F 12 in DBH (data/law/croton_on_hudson/ch208_trees.toml [conditions])
    path = survey_csv(tmp_path, [["1", "Acer rubrum", "14", "Removed", "Y"]])
    j = run_json(capsys, ["assess", path, "--json", *SITE])
    note = next(ln["value"] for ln in j["lines"] if ln["section"] == "§208-21F")
    assert "the approving authority may require, as a condition of the permit" in note
    assert "over 12 in DBH" in note and "is done by" not in note


def test_method_sheet_heading_is_readings(tmp_path, capsys):
    path = survey_csv(tmp_path, [["1", "Acer rubrum", "14", "Removed", "Y"]])
    out = tmp_path / "statement.xlsx"
    assert main(["assess", path, *SITE, "--out", str(out)]) == 0
    capsys.readouterr()
    ws = load_workbook(out)["Method & sources"]
    rows = [[c.value for c in r] for r in ws.iter_rows(min_row=3)]
    readings = [r for r in rows if r[0] == "Readings"]
    assert readings and not any(r[0] == "Readings of damaged text" for r in rows)
    assert ["§208-19B(1)", "§208-22F"] == [r[1] for r in readings if r[1] in ("§208-19B(1)", "§208-22F")]
    assert "damaged text" not in ws["A1"].value


def test_survey_and_assess_agree_on_a_prior_violation(tmp_path, capsys):
    # §208-22F measures the trees harmed in a violation: an earlier violation within one year raises the
    # §208-29A criminal maximum only. Three 6 in maples proposed on a slope (§208-19A(3)) and one removed:
    # the removed one is an offence, civil tier (1) $500, criminal $1,000 (a second violation within one
    # year, §208-29A) instead of $250; the three proposed stay in §208-22A at 90%, never 120%.
    rows = [["1", "Acer rubrum", "6", "Removed", "Y"]] + [
        [str(k), "Acer rubrum", "6", "Remove", "Y"] for k in (2, 3, 4)
    ]
    path = survey_csv(tmp_path, rows)
    assert main(["survey", path]) == 0
    said = capsys.readouterr().out
    line = next(x for x in said.splitlines() if "prior_violation_within_year not given" in x)
    assert "120%" not in line and "criminal maximum" in line
    j = run_json(capsys, ["assess", path, "--json", *SITE, "--site", "prior_violation_within_year=yes"])
    parts = {p["section"]: (p["trees"], p["percent"]) for p in j["replacement_parts"]}
    assert parts == {"§208-22F": (1, 120), "§208-22A": (3, 90)}
    assert (j["civil_penalty_max_usd"], j["criminal_fine_max_usd"]) == (500, 1000)


def test_a_croton_assessment_assumes_nothing_of_the_lot_line(tmp_path, capsys):
    path = survey_csv(tmp_path, [["1", "Acer rubrum", "14", "Removed", "Y"]])
    j = run_json(capsys, ["assess", path, "--json", *SITE])
    said = " ".join(j["assumptions"])
    assert "not surveyed (no column)" in said and "street_tree" in said
    assert "within_20ft_of_lot_line" not in said and "lot-line" not in said
    # Wesley Hills reads the flag: its assessment still says it was not surveyed
    j = run_json(capsys, ["assess", path, "--json", "--jurisdiction", "wesley-hills"])
    assert "within_20ft_of_lot_line" in " ".join(j["assumptions"])


def test_size_waiver_flag(tmp_path, capsys):
    # a 14 in maple removed on a slope without a permit: §208-22F replacement. A 1 in replacement is under the
    # §208-22D 1.5 in minimum: refused, and the refusal names the waiver that would allow it
    path = survey_csv(tmp_path, [["1", "Acer rubrum", "14", "Removed", "Y"]])
    stock = ["--replacement-species", "ACRU", "--replacement-dbh", "1", "--replacement-cost", "300"]
    assert main(["assess", path, *SITE, *stock]) == 2
    err = capsys.readouterr().err
    assert "1 in DBH is under the 1.5 in minimum for deciduous trees §208-22D" in err and "--size-waiver" in err
    j = run_json(capsys, ["assess", path, "--json", *SITE, *stock, "--size-waiver"])
    assert j["options"]["size_waiver"] is True
    assert j["replacement"]["trees_planted"] > 0 and j["replacement"]["dbh_in"] == 1
    text = io.StringIO(json.dumps(j["lines"])).getvalue()
    assert "waiver of the minimum size" in text


def test_text_answer_states_the_same_readings_as_the_json(tmp_path, capsys):
    # the text answer is the one most applicants read: it lists every reading the JSON carries, each
    # under its section, not only the notes that happen to repeat a few of them
    path = survey_csv(tmp_path, [["1", "Acer rubrum", "14", "Removed", "Y"]])
    j = run_json(capsys, ["assess", path, "--json", *SITE])
    assert main(["assess", path, *SITE]) == 0
    text = capsys.readouterr().out
    head = "Readings of unclear text (treecalc's, each under the section it reads):"
    assert head in text
    listed = text.split(head, 1)[1].splitlines()
    assert len(j["readings"]) >= 10
    for r in j["readings"]:
        # a control named in a reading (‹clear_cutting›) is written as this interface's flag in the text
        start = r["reading"].split("‹", 1)[0]
        line = [ln for ln in listed if start in ln]
        # under its section: the reading opens with it ("§208-19A(1) and (8): ..." under "§208-19A(1), (8)"), or
        # the line is prefixed with the whole section
        head = re.split(r"[(,]", r["section"], maxsplit=1)[0].strip()
        assert len(line) == 1 and (line[0].startswith(f"  - {head}") or r["section"] in line[0]), r
    assert not any(ln.startswith("  - §208-19A(1), (8): §208-19A(1)") for ln in listed)  # never said twice


def test_a_family_towns_text_answer_states_its_readings(tmp_path, capsys):
    # Milltown (count_by_class): its readings of Chapter 201's table are in the text answer with the section
    path = survey_csv(tmp_path, [["1", "Acer rubrum", "14", "Remove", "N"]])
    assert main(["assess", path, "--jurisdiction", "milltown"]) == 0
    text = capsys.readouterr().out.split("Readings of unclear text", 1)[1]
    assert "  - Ch. 201 Tree Replacement Requirements Table: Milltown Chapter 201: a DBH between two categories" in text
