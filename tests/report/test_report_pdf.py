"""The printable report (treecalc.report): the plain answer, the penalties apart, and the PDF's text."""

from __future__ import annotations

import importlib
import io
import json

import pytest

from treecalc.cli import main
from treecalc.report import penalties, plain_answer, report_data, report_pdf

pypdf = importlib.import_module("pypdf")


def pdf_text(data: bytes) -> str:
    assert data[:5] == b"%PDF-", "not a PDF"
    reader = pypdf.PdfReader(io.BytesIO(data))
    assert len(reader.pages) >= 1
    return "\n".join(p.extract_text() for p in reader.pages)


def _json(**over):
    from treecalc.law import cites

    d = {
        "jurisdiction": "croton_on_hudson",
        # the sections the assessment recorded, as report_data carries them (the report reads no law)
        "sections": cites.sections("croton_on_hudson"),
        "permit_required": True,
        "fund_in_lieu_usd": 900.0,
        "fund_placeholder": True,
        "assumptions": [],
        "lines": [],
        "replacement": {"trees_needed": 4, "trees_planted": 2, "trees_in_lieu": 2, "planting_cost_usd": 1800.0},
    }
    d.update(over)
    return d


def test_plain_answer_adds_planting_cost_and_fund_payment():
    p = plain_answer(_json())
    # 2 trees planted at $900 = $1,800 (§208-22D) + 2 in lieu x $450 = $900 (§208-24) -> $2,700
    assert p["total_usd"] == 2700.0
    assert p["trees_to_plant"] == 2 and p["trees_in_lieu"] == 2
    assert p["sections"]["fund_in_lieu_usd"] == "§208-24"
    assert any("§208-24C" in s for s in p["placeholders"])


def test_plain_answer_undetermined_fund_is_no_total():
    d = _json(fund_in_lieu_usd=None)
    assert plain_answer(d)["total_usd"] is None  # trees in lieu but no fee: not a $0 total
    d["replacement"] = {"trees_needed": 0, "trees_planted": 0, "trees_in_lieu": 0, "planting_cost_usd": None}
    assert plain_answer(d)["total_usd"] == 0.0  # nothing to plant, nothing in lieu: nothing to pay


def test_penalties_keep_definite_and_conditional_apart():
    before = penalties(_json(civil_penalty_max_usd=4500, criminal_fine_max_usd=750))
    assert before["definite"] == [
        ("§208-29B", "Civil penalty, maximum", 4500.0),
        ("§208-29A", "Criminal fine, maximum", 750.0),
    ]
    assert before["conditional"] == []  # issue 9's keys absent: nothing invented
    after = penalties(_json(civil_penalty_max_usd=4500, civil_penalty_conditional_usd=3000))
    assert after["conditional"] == [("§208-29B", "Civil penalty, maximum, if the conditions hold", 3000.0)]


def test_sample_pdf_has_survey_name_total_sections_and_signature():
    from treecalc.assessment import assess
    from treecalc.reference.data import SAMPLE_SURVEY

    a = assess(SAMPLE_SURVEY)
    d = report_data(a)
    json.dumps(d)  # the report input stays JSON
    text = pdf_text(report_pdf(d))
    assert "Survey: sample_survey.xlsx" in text
    # the sample (issue 9), annual values by hand from the Northeast tables at $0.008/gal stormwater (zone
    # tables, C = 1): the topped street tree, pin oak QUPA 25 in, $261.82 (was 235.91 at $0.0008) x 120% =
    # 314.184 -> $314.19 (§208-22F); the 8 proposed removals LITU 33 in 309.60 + BELE 9 in 175.40 + TSCA 13 in
    # 77.86 + FRAM 20 in 205.35 + SAAL 6 in 87.40 + PRSE1 9 in 49.31 + BELE 8 in 161.87 + ACRU 13 in 133.81 =
    # $1,200.60 (was 1,100.91) x 90% = $1,080.54 (§208-22A) -> $1,394.73; a 2 in red maple carries $64.68/yr,
    # so ceil(1394.73 / 64.68) = ceil(21.56) = 22 trees at the $450 placeholder = $9,900.00, $0 in lieu
    assert d["replacement"]["trees_planted"] == 22 and d["fund_in_lieu_usd"] == 0
    assert "Total out of pocket: $9,900.00" in text
    # the printable Method names the stormwater price in force and where it comes from
    flat = " ".join(text.split())
    assert "Stormwater is priced at $0.008/gal" in flat and "PSW-GTR-202" in flat
    for s in (
        "§208-19A(1)",
        "§208-22A",
        "§208-24",
        "§208-29B",
        "Readings of unclear law text",
        "Signature",
        "Village Engineer",
    ):
        assert s in text, s
    assert a.method["readings"][0][:30] in text.replace("\n", " ")


def test_pdf_reads_issue9_keys_when_present():
    from treecalc.assessment import assess
    from treecalc.reference.data import SAMPLE_SURVEY

    d = report_data(assess(SAMPLE_SURVEY), "my site.xlsx")
    d["civil_penalty_conditional_usd"] = 12345.0
    d["replacement_parts"] = [
        {"section": "§208-22F", "percent": 120, "trees": 2, "value_usd": 10.0, "required_value_usd": 12.0}
    ]
    text = pdf_text(report_pdf(d))
    assert "Survey: my site.xlsx" in text
    assert "if the conditions hold" in text and "12,345.00" in text
    assert "§208-22F" in text


def test_wesley_hills_report_does_not_cite_chapter_208_for_its_answer():
    from treecalc.assessment import assess
    from treecalc.reference.data import SAMPLE_SURVEY

    text = pdf_text(report_pdf(report_data(assess(SAMPLE_SURVEY, jurisdiction="wesley_hills"))))
    answer = text.split("What this permit costs you")[1].split("Permit triggers")[0]
    assert "§208" not in answer and "§95-3A(1)" in answer
    assert "Tree Preservation Fund (§208-24)" not in text


def _trees_heading(text: str) -> str:
    """The Trees concerned table's heading row, its wrapped cells joined ("Permit\\ntriggers" -> "Permit triggers")."""
    return " ".join(text.split("Trees concerned")[1].split("Penalty max")[0].split())


@pytest.mark.parametrize("kind", ["permit", "violation"])
def test_the_trees_table_of_a_wesley_hills_survey_cites_chapter_95(tmp_path, kind):
    # its columns were headed with Chapter 208's sections (§208-19, §208-22, §208-29) whatever the law applied
    from treecalc.assessment import assess

    p = tmp_path / "pine.csv"
    # H1: 12 in >= 10, 250 ft > 200 ft from the residence, lot 2.1 >= 1.5 acres: §95-3A(1)(d), removed: a fine
    # H2: 7 in >= 6 within 20 ft of a lot line, no certificate of occupancy: §95-3A(1)(e), removed: a fine
    p.write_text(
        "Tag,Species,DBH (in),Action,Within 20 ft of lot line,Distance to residence (ft)\n"
        "H1,Red oak,12,removed,no,250\nH2,Tulip tree,7,removed,yes,80\n"
    )
    site = {"lot_area_acres": 2.1, "has_residence": True, "one_family_co_issued": False}
    a = assess(str(p), jurisdiction="wesley_hills", site=site)
    assert a.penalties.offences_definite == 2  # the table has the offence column
    text = pdf_text(report_pdf(report_data(a), kind=kind))
    heading = _trees_heading(text)
    assert "Permit triggers (§95-3A(1))" in heading and "Offence (Ch. 95 penalties A)" in heading
    # Chapter 95 has no replacement: no column counts a tree toward one
    assert "Counted" not in heading and "Not counted" not in heading
    assert "§208" not in text
    # Chapter 95 fines a tree under one paragraph and has no tiers: the column of the fine is not a "tier"
    assert "Fine under" in heading and "tier" not in heading


def test_the_trees_table_of_a_croton_survey_keeps_chapter_208s_sections(tmp_path):
    survey = _survey_csv(tmp_path)
    out = tmp_path / "report.pdf"
    assert main(["assess", str(survey), "--site", "subdividable=true", "--pdf", str(out)]) == 0
    heading = _trees_heading(pdf_text(out.read_bytes()))
    assert "Permit triggers (§208-19) Counted (§208-22) Not counted because Offence (§208-29)" in heading
    assert "Penalty tier" in heading and "Fine under" not in heading


def _survey_csv(tmp_path):
    p = tmp_path / "Hudson St lot 7.csv"
    p.write_text(
        "Tag,Species,DBH (in),Action\n101,Red maple,12,removed\n102,Red maple,12,removed\n"
        "103,Red maple,12,removed\n104,Red maple,8,retain\n"
    )
    return p


def test_cli_writes_the_pdf(tmp_path, capsys):
    survey = _survey_csv(tmp_path)
    out = tmp_path / "report.pdf"
    rc = main(
        [
            "assess",
            str(survey),
            "--site",
            "subdividable=true",
            "--replacement-species",
            "ACRU",
            "--replacement-dbh",
            "12",
            "--replacement-cost",
            "900",
            "--plantable",
            "2",
            "--pdf",
            str(out),
            "--json",
        ]
    )
    assert rc == 0
    j = json.loads(capsys.readouterr().out)  # --json output stays pure JSON
    # 120% of 3 x 117.36 = 422.50 -> 4 trees of 12 in; 2 planted x $900 = $1,800; 2 in lieu x $450 = $900
    assert j["replacement"]["planting_cost_usd"] == 1800.0 and j["fund_in_lieu_usd"] == 900.0
    text = pdf_text(out.read_bytes())
    assert "Survey: Hudson St lot 7.csv" in text
    assert "Total out of pocket: $2,700.00" in text
    assert "Offences (trees harmed without a required permit): 3" in text
    assert "$4,500.00" in text or "4,500.00" in text  # 3 x $1,500 civil maximum (§208-29B(2))


def test_cli_pdf_bad_name_is_a_clean_error(tmp_path, capsys):
    assert main(["assess", str(_survey_csv(tmp_path)), "--pdf", str(tmp_path / "report.xlsx")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --pdf") and "ending in .pdf" in err
    assert main(["assess", "--pdf", str(tmp_path / "nope" / "r.pdf")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_statement_rows_sum_up_an_item_given_once_per_tree():
    from treecalc.report.pdf import MAX_REPEATED_LINES, statement_rows

    n = MAX_REPEATED_LINES + 5
    lines = [
        {"section": "§208-22E", "item": "Not counted", "value": f"tree {i}", "unit": "", "note": "invasive"}
        for i in range(n)
    ] + [{"section": "§208-24", "item": "Payment in lieu", "value": 900.0, "unit": "USD", "note": ""}]
    rows = statement_rows(lines)
    assert rows == [
        ("§208-22E", "Not counted", f"{n} trees", "trees", "one line per tree in the Excel statement"),
        ("§208-24", "Payment in lieu", "900.00", "USD", ""),
    ]


def test_penalty_maxima_carry_the_section_of_the_maximum_not_of_the_first_tier():
    # the statement lists the tiers first: "Civil penalty tier" §208-29B(1) ... then "Civil penalty, maximum"
    # §208-29B; the report printed the total's section as §208-29B(1) (the $500-per-tree tier) while the page
    # and the statement say §208-29B
    lines = [
        {"section": "§208-29B(1)", "item": "Civil penalty tier", "value": 4},
        {"section": "§208-29B(2)", "item": "Civil penalty tier", "value": 4},
        {"section": "§208-29B", "item": "Civil penalty, maximum", "value": 208000},
        {"section": "§208-29A", "item": "Criminal fine, maximum", "value": 190000},
    ]
    pen = penalties(_json(lines=lines, civil_penalty_max_usd=208000, criminal_fine_max_usd=190000))
    assert pen["definite"] == [
        ("§208-29B", "Civil penalty, maximum", 208000.0),
        ("§208-29A", "Criminal fine, maximum", 190000.0),
    ]


def test_fund_basis_in_words_not_its_toml_key():
    # the report printed "Basis of payment in lieu per_tree" (the fee schedule's key) for the applicant
    lines = [
        {
            "section": "§208-24C",
            "item": "Basis of payment in lieu",
            "value": "per_tree",
            "note": "PLACEHOLDER, to be set by Board resolution (§208-24C)",
        },
        {
            "section": "§208-24",
            "item": "Payment in lieu to the Tree Preservation Fund",
            "value": 900.0,
            "note": "2 tree(s) x $450.00",
        },
    ]
    text = pdf_text(report_pdf(_json(lines=lines, survey_name="lot.csv")))
    assert "per_tree" not in text
    assert "a fee per tree not planted" in text.replace("\n", " ")


def test_trees_concerned_name_the_species_as_surveyed_with_its_code(tmp_path, capsys):
    from treecalc.report.content import species_label

    survey = _survey_csv(tmp_path)
    out = tmp_path / "report.pdf"
    assert main(["assess", str(survey), "--site", "subdividable=true", "--pdf", str(out)]) == 0
    text = pdf_text(out.read_bytes())
    trees = " ".join(text.split("Trees concerned")[1].split())  # the cell wraps: "Red maple\n(ACRU)"
    assert "Red maple (ACRU)" in trees  # the surveyed name, not the code alone
    assert species_label({"species": "ACRU", "species_code": "ACRU"}) == "ACRU"
    assert species_label({"species": "", "species_code": "QUPA"}) == "QUPA"


def test_replacement_percentage_of_mixed_parts_is_given_part_by_part(tmp_path):
    # 2 trees removed without a permit (§208-22F, 120%) and 3 proposed under a permit for 3 or more (§208-22A,
    # 90%): there is no single percentage; the PDF printed "%" with no number
    from treecalc.report.content import percent_text

    assert percent_text(120) == "120%" and percent_text(None, []) == "—"
    assert percent_text(None, [{"percent": 120}, {"percent": 90.0}, {"percent": 120}]) == "120% and 90% by part"
    p = tmp_path / "mixed.csv"
    p.write_text(
        "Tag,Species,DBH (in),Action\n1,Red maple,12,removed\n2,Red maple,12,removed\n"
        "3,Red maple,12,remove\n4,Red maple,12,remove\n5,Red maple,12,remove\n"
    )
    out = tmp_path / "r.pdf"
    assert main(["assess", str(p), "--site", "subdividable=true", "--pdf", str(out)]) == 0
    text = " ".join(pdf_text(out.read_bytes()).split())
    assert "Replacement percentage 120% and 90% by part" in text


def test_pdf_lists_the_rejected_rows_it_points_to(tmp_path):
    # A survey of 4 rows, 3 of them unusable. The statement line "Rows rejected: 3 rows, see the Rejected rows"
    # pointed to a section the PDF did not have; each row is listed with its sheet row (header = line 1, so
    # tag 11 is row 3), the column, the reason without its own "row N, column 'X':" head, and the cell written.
    p = tmp_path / "Elm Ct survey.csv"
    p.write_text(
        "Tag,Species,DBH (in),Action\n10,Red maple,12,remove\n11,Red maple,nine,remove\n"
        "12,Qwzrt tree,8,remove\n13,Red maple,-3,remove\n"
    )
    out = tmp_path / "r.pdf"
    assert main(["assess", str(p), "--pdf", str(out)]) == 0
    text = " ".join(pdf_text(out.read_bytes()).split())
    assert "Rows rejected 3 rows see the Rejected rows" in text
    part = text.split("Rejected rows (3)")[1].split("The statement, section by section")[0]
    assert "Sheet row Column Reason Value written" in part
    assert "3 DBH (in) 'nine' is not a number nine" in part
    assert "5 DBH (in) '-3' is not a positive diameter -3" in part
    assert "4 Species species 'Qwzrt tree' not recognised" in part
    assert "row 3, column" not in part  # the head is not repeated in the reason


def test_pdf_lists_at_most_max_rejected_rows_and_says_how_many_more():
    from treecalc.report import pdf

    n = pdf.MAX_REJECTED_ROWS + 7  # 7 rows past the limit: "... and 7 more rejected rows"
    rows = [
        {"source_row": i + 2, "column": "DBH", "reason": f"row {i + 2}, column 'DBH': 'x' is not a number", "raw": {}}
        for i in range(n)
    ]
    text = " ".join(pdf_text(report_pdf(_json(rejected_rows=rows, rejected=n))).split())
    assert f"Rejected rows ({n})" in text
    last = pdf.MAX_REJECTED_ROWS + 1  # the last row listed: sheet row MAX + 1 (rows start at 2)
    assert f"{last} DBH 'x' is not a number" in text and f"{last + 1} DBH 'x'" not in text
    assert "... and 7 more rejected rows: every one is on the Rejected rows sheet of the Excel statement" in text
    assert "Rejected rows (" not in " ".join(pdf_text(report_pdf(_json())).split())  # none: no section


def test_fee_schedule_given_as_a_dict_is_said_in_words(tmp_path):
    # the app gives the fee schedule set on its Fund page as a dict: treecalc.rules.croton_on_hudson.schedule names its source
    # "given as a dict", and the PDF printed that in the fund's and the statement's "Basis of payment" lines
    from treecalc.assessment import assess
    from treecalc.ingest import read_survey

    p = tmp_path / "Elm Ct survey.csv"
    # topped (§208-18D): definite offences, so a §208-22F replacement and its fund lines are printed (two
    # removals with no parcel facts are conditional offences only: no replacement, no fund lines)
    p.write_text("Tag,Species,DBH (in),Action\n10,Red maple,12,topped\n11,Red maple,14,topped\n")
    a = assess(read_survey(p), fee_schedule={"basis": "per_tree", "fee_per_tree_usd": "500", "placeholder": False})
    assert a.replacement.required
    text = " ".join(pdf_text(report_pdf(report_data(a))).split())
    assert "given as a dict" not in text
    # once in the fund's table, once in the statement's
    assert text.count("a fee per tree not planted given by the user (in the app: set on the Fund page)") == 2


def test_pdf_usd_puts_the_sign_before_the_dollar_sign():
    # "$-950.00" before; the app writes -$950 (treecalc.app.ui.usd): one way everywhere
    from treecalc.report.pdf import usd

    assert usd(-950) == "-$950.00" and usd(1234.5) == "$1,234.50" and usd(-0.001) == "$0.00"
    assert usd(None) == usd(float("nan")) == "not determined"


def test_pdf_of_a_survey_with_a_very_long_or_many_lined_rejected_cell_is_written(tmp_path):
    # A DBH cell of 10,000 characters (a paste gone wrong) and one of 200 lines: each rejected row is printed
    # with the cell as written, and one row of the table must fit a page; fpdf2 refused ("The row with index 1
    # is too high and cannot be rendered on a single page", exit 2) and there was no PDF at all. The reason
    # already cuts the cell ('xxx…'... (10,000 characters)); the value written is cut the same way: its first
    # 60 characters, then the count, line breaks shown as spaces.
    p = tmp_path / "Long Rd survey.csv"
    p.write_text(
        "Tag,Species,DBH (in),Action\n10,Red maple,12,remove\n11,Red maple," + "x" * 10_000 + ",remove\n"
        '12,Red maple,"' + "a\n" * 200 + '",remove\n',
        encoding="utf-8",
    )
    out = tmp_path / "r.pdf"
    assert main(["assess", str(p), "--pdf", str(out)]) == 0
    text = " ".join(pdf_text(out.read_bytes()).split())
    part = text.split("Rejected rows (2)")[1].split("The statement, section by section")[0]
    assert "x" * 61 not in part.replace(" ", "")  # cut: 60 x's in the value, 60 in the reason's repr
    assert "(10,000 characters)" in part
    assert "(400 characters)" in part  # "a\n" * 200: 400 characters, shown "a a a ..." cut at 60


def test_pdf_of_a_rejected_row_under_a_very_long_header_mapped_by_hand_is_written(tmp_path):
    # The app's column map ("Read as") lets the arborist map any header, here one of 3,009 characters, to the
    # DBH: a row rejected under it printed the header whole in the 32 mm Column column, the row was taller than a
    # page and fpdf2 refused the PDF. The column is cut as the value written is (60 characters, then its length).
    from treecalc.assessment import assess
    from treecalc.ingest import read_survey

    header = "DBH (in) " + "z" * 3_000
    p = tmp_path / "Long Header Ln survey.csv"
    p.write_text(f'Tag,Species,"{header}",Action\n1,Red maple,12,remove\n2,Red maple,bad,remove\n', encoding="utf-8")
    a = assess(read_survey(p, column_map={header: "dbh_in"}))
    text = "".join(pdf_text(report_pdf(report_data(a))).split())
    part = text.split("Rejectedrows(1)")[1].split("Thestatement,sectionbysection")[0]
    assert "(3,009characters)" in part and "z" * 61 not in part


def test_pdf_one_rejected_row_past_the_limit_is_said_in_the_singular():
    from treecalc.report import pdf

    n = pdf.MAX_REJECTED_ROWS + 1  # one row past the limit: "... and 1 more rejected row" (it said "rows")
    rows = [{"source_row": i + 2, "column": "DBH", "reason": "'x' is not a number", "raw": {}} for i in range(n)]
    text = " ".join(pdf_text(report_pdf(_json(rejected_rows=rows, rejected=n))).split())
    assert "... and 1 more rejected row: every one" in text


def test_pdf_one_tree_past_the_limit_is_said_in_the_singular():
    from treecalc.report import pdf

    n = pdf.MAX_TREE_ROWS + 1  # one tree concerned past the limit: "... and 1 more tree" (it said "trees")
    trees = [{"tag": str(i), "species": "Red maple", "species_code": "ACRU", "action": "remove"} for i in range(n)]
    text = " ".join(pdf_text(report_pdf(_json(per_tree=trees))).split())
    assert "... and 1 more tree: every tree is in the Excel statement" in text


def test_the_pdf_counts_topped_and_excessively_pruned_trees_as_harmed():
    # the report's first lines: a tree topped or excessively pruned (§208-18D) is harmed, as a removed or damaged
    # one is; a tree proposed for removal is not yet. Here: removed 1, topped 1, excessively pruned 1, damaged 1
    # -> 4 done; 1 proposed; 1 retained -> counted in neither.
    from treecalc.report.content import harm_counts

    acts = ["removed", "topped", "excessively_pruned", "damaged", "remove", "retain"]
    assert harm_counts({"per_tree": [{"action": a} for a in acts]}) == {"done": 4, "proposed": 1}


def test_the_pdf_prints_its_own_words_in_any_script(tmp_path):
    """The core fonts drew Latin-1 only: "√Σd²" came out "??d²" and "Łukasz Żółw – 银杏" "?ukasz ?ó?w - ??".
    A Wesley Hills survey (its reading of a multi-stem diameter says √Σd²) named after its arborist, with a ginkgo
    whose species cell carries its Chinese name, printed through the command line as a user would."""
    survey = tmp_path / "Łukasz Żółw arborist survey.csv"
    survey.write_text(
        "Tag,Species,DBH (in),Action,Within 20 ft of lot line,Distance to residence (ft),Notes\n"
        "G1,Ginkgo biloba (银杏),12,removed,no,250,银杏 by the gate\n",
        encoding="utf-8",
    )
    out = tmp_path / "report.pdf"
    site = ["--site", "lot_area_acres=2.1", "--site", "has_residence=true", "--site", "one_family_co_issued=false"]
    assert main(["assess", str(survey), "--jurisdiction", "wesley_hills", *site, "--pdf", str(out)]) == 0
    text = pdf_text(out.read_bytes())
    assert "√Σd²" in text  # the reading of a multi-stem tree's diameter, §95-3A(1)
    assert "Łukasz Żółw" in text  # the survey's name
    # the CJK fallback font (CFF, two-byte codes under an embedded Identity CMap) is read back by pypdf one byte
    # at a time: each glyph comes with a NUL (a space in the default mode); the layout mode keeps the NULs apart
    reader = pypdf.PdfReader(io.BytesIO(out.read_bytes()))
    layout = "".join(p.extract_text(extraction_mode="layout") for p in reader.pages).replace("\x00", "")
    assert "(银杏) (GIBI)" in " ".join(layout.split())  # the species as surveyed ("Ginkgo biloba" wraps above)
    assert "?ukasz" not in text and "??d" not in text


def test_statement_rows_say_one_tree_and_whole_dollars_to_the_cent():
    from treecalc.report.pdf import statement_rows

    lines = [
        {"section": "§208-22E", "item": "Not counted", "value": 1, "unit": "trees", "note": ""},
        {"section": "§208-22E", "item": "Counted", "value": 2, "unit": "trees", "note": ""},
        # 6 trees x $4,000 (§208-29B(4)) = $24,000, an int: before, "24000 USD" beside "9,900.00 USD"
        {"section": "§208-29B", "item": "Civil penalty, maximum", "value": 24000, "unit": "USD", "note": "up to"},
    ]
    assert statement_rows(lines) == [
        ("§208-22E", "Not counted", "1", "tree", ""),
        ("§208-22E", "Counted", "2", "trees", ""),
        ("§208-29B", "Civil penalty, maximum", "24,000.00", "USD", "up to"),
    ]


def test_the_pdf_has_the_users_usual_mode(tmp_path, capsys):
    # before: 0600 (the temporary file's), unlike the statement beside it; the umask 022 gives 0644
    import os
    import stat

    out = tmp_path / "report.pdf"
    old = os.umask(0o022)
    try:
        assert main(["assess", str(_survey_csv(tmp_path)), "--pdf", str(out)]) == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o644
