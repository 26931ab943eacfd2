"""Header variants, title rows, merged cells, units, stems, totals rows, column maps."""

from __future__ import annotations

import math

import pytest

from tests.helpers.ingest import read_csv_text, write_text, write_xlsx
from treecalc.ingest import SurveyError, read_survey
from treecalc.ingest.columns import match_header

ROW = ["7", "Quercus rubra", "15", "Remove", "Good", "ROW tree"]


@pytest.mark.parametrize("tag", ["Tag #", "Tree No.", "ID", "Tree ID", "Tree #", "Tag"])
@pytest.mark.parametrize(
    "species", ["Species", "Common Name", "Botanical Name", "Scientific name", "Genus species", "Botanical"]
)
def test_tag_and_species_headers(tmp_path, tag, species):
    p = write_text(tmp_path / "s.csv", [[tag, species, "DBH"], ["7", "Quercus rubra", "15"]])
    s = read_survey(p)
    assert s.source["column_map"] == {tag: "tag", species: "species", "DBH": "dbh"}
    assert s.trees["tag"].iloc[0] == "7" and s.trees["species_code"].iloc[0] == "QURU"


@pytest.mark.parametrize(
    "dbh, unit, expected",
    [
        ("DBH", "in", 15),
        ("D.B.H. (in.)", "in", 15),
        ("DBH in", "in", 15),
        ("DBH (in)", "in", 15),
        ("Diameter", "in", 15),
        ("Trunk Diam", "in", 15),
        ("DBH (cm)", "cm", 15 / 2.54),
        ("Diameter (cm)", "cm", 15 / 2.54),
        ("Diameter (mm)", "mm", 15 / 25.4),
        ('DBH (")', "in", 15),
    ],
)
def test_dbh_headers_and_units(tmp_path, dbh, unit, expected):
    p = write_text(tmp_path / "s.csv", [["Tag", "Species", dbh], ["1", "Acer rubrum", "15"]])
    s = read_survey(p)
    assert s.source["dbh_unit"] == unit
    assert s.trees["dbh_in"].iloc[0] == pytest.approx(expected)


@pytest.mark.parametrize(
    "header, value, action",
    [
        ("Action", "Remove", "remove"),
        ("Action", "retain", "retain"),
        ("Status", "Removed", "removed"),
        ("Proposed", "TBR", "remove"),
        ("Recommendation", "Preserve", "retain"),
        ("Proposed Action", "Topped", "topped"),
        ("Remove?", "Yes", "remove"),
        ("Remove?", "N", "retain"),
        ("Remove?", "X", "remove"),
        ("Remove?", "", "retain"),
        ("Action", "felled", "removed"),
        ("Action", "girdled", "damaged"),
        ("Action", "pruned excessively", "excessively_pruned"),
        ("Action", "Transplant", "transplant"),
        ("Action", "Relocate", "transplant"),
        ("Action", "Removed – stump", "removed"),
        ("Action", "Over-pruned", "excessively_pruned"),
        ("Action", "Injured", "damaged"),
        ("Status", "Alive", "retain"),
        ("Action", "to be removed", "remove"),
        ("Action", "Stump", "removed"),
        ("Action", "save", "retain"),
        # a work order's status: the removal is done (it read "remove", proposed: no offence, 90% not 120%)
        ("Action", "Removal complete", "removed"),
        ("Action", "Removal completed 2025", "removed"),
        ("Action", "Remove - done", "removed"),
        ("Action", "Removal proposed", "remove"),
    ],
)
def test_action_headers_and_synonyms(tmp_path, header, value, action):
    p = write_text(
        tmp_path / "s.csv",
        [
            ["Tag", "Species", "DBH", header],
            ["1", "Acer rubrum", "15", value],
            ["2", "Acer rubrum", "9", "retain" if "?" not in header else "no"],
        ],
    )
    s = read_survey(p)
    assert s.trees["action"].iloc[0] == action


def test_blank_action_is_retain_said_once(tmp_path):
    p = write_text(
        tmp_path / "s.csv",
        [
            ["Tag", "Species", "DBH", "Action"],
            ["1", "Acer rubrum", "15", ""],
            ["2", "Acer rubrum", "9", ""],
            ["3", "Acer rubrum", "9", "remove"],
        ],
    )
    s = read_survey(p)
    assert list(s.trees["action"]) == ["retain", "retain", "remove"]
    assert sum("taken as retain" in w for w in s.warnings) == 1


def test_unknown_action_rejects_the_row_with_the_known_actions(tmp_path):
    # an action word treecalc does not know never becomes a removal: the row is rejected and says what is known
    p = write_text(
        tmp_path / "s.csv",
        [
            ["Tag", "Species", "DBH", "Action"],
            ["1", "Acer rubrum", "15", "maybe?"],
            ["2", "Acer rubrum", "15", "Retain"],
        ],
    )
    s = read_survey(p)
    assert list(s.trees["tag"]) == ["2"] and s.rows_read == 2
    r = s.rejected.iloc[0]
    assert r["kind"] == "action not recognised" and r["column"] == "Action"
    assert "'maybe?' not recognised" in r["reason"] and "transplant" in r["reason"] and "retain" in r["reason"]


def test_action_cell_states_facts(tmp_path):
    # "Remove – hazard" is a removal of a hazardous tree; a status "Dead" is a retained dead tree
    p = write_text(
        tmp_path / "s.csv",
        [
            ["Tag", "Species", "DBH", "Action"],
            ["1", "Acer rubrum", "15", "Remove – hazard"],
            ["2", "Acer rubrum", "15", "Dead"],
            ["3", "Acer rubrum", "15", "Remove"],
        ],
    )
    s = read_survey(p)
    assert list(s.trees["action"]) == ["remove", "retain", "remove"]
    assert list(s.trees["hazardous"]) == [True, False, False]
    assert list(s.trees["dead_or_diseased"]) == [False, True, False]


@pytest.mark.parametrize("header", ["Condition", "Cond.", "Health"])
def test_condition_headers(tmp_path, header):
    p = write_text(
        tmp_path / "s.csv",
        [
            ["Tag", "Species", "DBH", header],
            ["1", "Acer rubrum", "15", "Good"],
            ["2", "Acer rubrum", "15", "P"],
            ["3", "Acer rubrum", "15", "75%"],
            ["4", "Acer rubrum", "15", ""],
        ],
    )
    s = read_survey(p)
    assert list(s.trees["condition"]) == ["good", "poor", "good", ""]


def test_every_flag_and_boolean_spelling(tmp_path):
    header = [
        "Tag",
        "Species",
        "DBH",
        "Street tree",
        "Wetland",
        "Steep slope",
        "Excessively steep slope",
        "Landmark",
        "Conservation easement",
        "Threatened or endangered",  # the columns in FLAG_FIELDS' order: zip() below pairs them with their words
        "DEC protected",
        "Regulated buffer zone",
        "Hazardous",
        "Dead or diseased",
        "Good forestry",
        "Within 20 ft of lot line",
        "Distance to house (ft)",
        "Land Use",
        "Notes",
        "Comments",
    ]
    yes = ["Y", "Yes", "X", "TRUE", "1", "✓", "x", "T", "yes", "High", "y", "true", "1"]
    no = ["N", "No", "", "FALSE", "0", "", "", "F", "no", "Low", "n", "false", "0"]
    rows = [
        header,
        ["1", "Acer rubrum", "15", *yes, "85", "Single family", "near drive", "check roots"],
        ["2", "Acer rubrum", "15", *no, "250.5", "park", "", ""],
    ]
    s = read_survey(write_text(tmp_path / "s.csv", rows))
    from treecalc.ingest import FLAG_FIELDS

    assert set(s.source["column_map"].values()) >= set(FLAG_FIELDS)
    # a blank flag cell is a fact not given (NA), not a "no": the rules decide what it means
    for f, word in zip(FLAG_FIELDS, no):
        assert str(s.trees[f].dtype) == "boolean"
        assert bool(s.trees[f][0]) is True, f
        if word == "":
            assert s.trees[f].isna()[1], f
        else:
            assert not s.trees[f].isna()[1] and bool(s.trees[f][1]) is False, f
    assert list(s.trees["distance_to_residence_ft"]) == [85, 250.5]
    assert list(s.trees["land_use"]) == ["single_family", "park_vacant_other"]
    assert s.trees["notes"].iloc[0] == "near drive; check roots"
    assert not any(s.trees["warnings"])
    assert not any("not surveyed" in a for a in s.site_assumptions)


def test_unrecognised_flag_text_is_conservative(tmp_path):
    rows = [["Tag", "Species", "DBH", "Wetland", "Hazardous"], ["1", "Acer rubrum", "15", "maybe", "perhaps"]]
    s = read_survey(write_text(tmp_path / "s.csv", rows))
    t = s.trees.iloc[0]
    assert t["wetland"] is True or bool(t["wetland"]) is True  # raises obligations: True
    assert bool(t["hazardous"]) is False  # would exempt: False
    assert "wetland: 'maybe'" in t["warnings"] and "hazardous: 'perhaps'" in t["warnings"]


def test_absent_flags_are_false_and_listed(tmp_path):
    s = read_survey(write_text(tmp_path / "s.csv", [["Tag", "Species", "DBH"], ["1", "Acer rubrum", "15"]]))
    assert bool(s.trees["wetland"].iloc[0]) is False
    note = next(a for a in s.site_assumptions if a.startswith("not surveyed"))
    assert "wetland" in note and "street_tree" in note


def test_title_rows_and_merged_header(tmp_path):
    rows = [
        ["Acme Tree Care"],
        ["Tree Survey — 12 Example Lane"],
        ["Date: 2025-04-14"],
        [],
        ["Tag #", "Species", "DBH", None, "Notes"],
        [None, None, "Stem 1", "Stem 2", None],
        [1, "Acer rubrum", 12, 8, "two stems"],
        [2, "Quercus alba", 20, None, ""],
    ]
    p = write_xlsx(tmp_path / "s.xlsx", rows, merges=["A1:E1", "A2:E2", "C5:D5"])
    s = read_survey(p)
    assert s.source["header_row"] == 5
    # row 6 is a sub-header under the merged "DBH" cell: it is read as a row and rejected, never silent
    assert s.rows_read == 3 and len(s.trees) == 2
    assert list(s.trees["dbh_in"]) == pytest.approx([math.hypot(12, 8), 20])
    assert list(s.trees["stems"]) == [2, 1]


def test_multistem_string(tmp_path):
    # "12, 8, 6" → sqrt(144 + 64 + 36) = sqrt(244) = 15.62 in
    s = read_survey(write_text(tmp_path / "s.csv", [["Tag", "Species", "DBH"], ["1", "Acer rubrum", "12, 8, 6"]]))
    assert s.trees["dbh_in"].iloc[0] == pytest.approx(15.6205, abs=1e-4)
    assert s.trees["stems"].iloc[0] == 3


def test_stem_columns(tmp_path):
    rows = [
        ["Tag", "Species", "Stem 1", "Stem 2", "Stem 3"],
        ["1", "Acer rubrum", "12", "8", "6"],
        ["2", "Acer rubrum", "10", "", ""],
    ]
    s = read_survey(write_text(tmp_path / "s.csv", rows))
    assert list(s.trees["dbh_in"]) == pytest.approx([math.sqrt(244), 10])
    assert list(s.trees["stems"]) == [3, 1]
    rows = [["Tag", "Species", "DBH", "DBH 2", "DBH 3"], ["1", "Acer rubrum", "12", "8", "6"]]
    s = read_survey(write_text(tmp_path / "t.csv", rows))
    assert s.trees["dbh_in"].iloc[0] == pytest.approx(math.sqrt(244))


def test_unit_column_and_user_unit(tmp_path):
    rows = [
        ["Tag", "Species", "DBH", "Unit"],
        ["1", "Acer rubrum", "30", "cm"],
        ["2", "Acer rubrum", "300", "mm"],
        ["3", "Acer rubrum", "12", "in"],
        ["4", "Acer rubrum", "12", ""],
    ]
    s = read_survey(write_text(tmp_path / "s.csv", rows))
    assert list(s.trees["dbh_in"]) == pytest.approx([30 / 2.54, 300 / 25.4, 12, 12])
    s = read_survey(
        write_text(tmp_path / "t.csv", [["Tag", "Species", "DBH"], ["1", "Acer rubrum", "30"]]), dbh_unit="cm"
    )
    assert s.trees["dbh_in"].iloc[0] == pytest.approx(30 / 2.54)
    assert s.source["dbh_unit_source"].startswith("given by the user")
    # a unit written in the cell wins for that cell
    s = read_survey(write_text(tmp_path / "u.csv", [["Tag", "Species", "DBH"], ["1", "Acer rubrum", "30 cm"]]))
    assert s.trees["dbh_in"].iloc[0] == pytest.approx(30 / 2.54)


def test_column_map(tmp_path):
    rows = [["No", "Tree", "Diam. cm", "What"], ["1", "Acer rubrum", "30", "cut"]]
    p = write_text(tmp_path / "s.csv", rows)
    s = read_survey(p, column_map={"Tree": "species", "Diam. cm": "dbh_cm", "What": "action"})
    assert s.trees["dbh_in"].iloc[0] == pytest.approx(30 / 2.54)
    assert s.trees["action"].iloc[0] == "remove"
    assert s.source["column_map"]["Diam. cm"] == "dbh_cm"
    with pytest.raises(SurveyError, match="not in the header"):
        read_survey(p, column_map={"Nope": "dbh"})
    with pytest.raises(SurveyError, match="unknown field 'speces'; did you mean 'species'"):
        read_survey(p, column_map={"Tree": "speces"})


def test_common_and_botanical_columns(tmp_path):
    rows = [
        ["Tag", "Common Name", "Botanical Name", "DBH"],
        ["1", "red maple", "Quercus rubra", "10"],
        ["2", "Sugar maple", "", "10"],
    ]
    s = read_survey(write_text(tmp_path / "s.csv", rows))
    assert list(s.trees["species_code"]) == ["QURU", "ACSA2"]  # the botanical name wins when both are given


def test_species_common_slash_botanical(tmp_path):
    rows = [
        ["Tag", "Species", "DBH"],
        ["1", "Red maple / Acer rubrum 'October Glory'", "10"],
        ["2", "Pin oak (Quercus palustris)", "10"],
        ["3", "Quercus sp.", "10"],
    ]
    s = read_survey(write_text(tmp_path / "s.csv", rows))
    assert list(s.trees["species_code"]) == ["ACRU", "QUPA", "QU"]
    assert "genus only" in s.trees["warnings"].iloc[2]


@pytest.mark.parametrize("label", ["Total", "TOTALS:", "Sum", "Subtotal", "Count", "Average", "Grand total"])
def test_totals_row_by_text(tmp_path, label):
    rows = [["Tag", "Species", "DBH"], ["1", "Acer rubrum", "10"], ["2", "Acer rubrum", "12"], [label, "", "22"]]
    s = read_survey(write_text(tmp_path / "s.csv", rows))
    assert len(s.trees) == 2 and list(s.rejected["kind"]) == ["totals row"]
    assert s.rejected["source_row"].iloc[0] == 4


def test_totals_row_of_sums(tmp_path):
    rows = [["Tag", "Species", "DBH"], [1, "Acer rubrum", 10], [2, "Acer rubrum", 12.5], [None, None, 22.5]]
    s = read_survey(write_xlsx(tmp_path / "s.xlsx", rows))
    assert list(s.rejected["kind"]) == ["totals row"]
    # a row of a number that is not the sum is a row without species
    rows[-1] = [None, None, 5]
    s = read_survey(write_xlsx(tmp_path / "t.xlsx", rows))
    assert list(s.rejected["kind"]) == ["missing species"]


def test_match_header_units():
    assert match_header("Diameter (mm)")[:2] == ("dbh", "mm")
    assert match_header("D.B.H. (in.)")[:2] == ("dbh", "in")
    assert match_header("Stem 2") == ("dbh_stem", None, 2)
    assert match_header("Distance to house (m)")[:2] == ("distance_to_residence_ft", "m")
    assert match_header("Whatever")[0] is None


# ======================================================== regressions from the QA report on survey ingest
# (formerly tests/ingest/test_ingest_qa_regressions.py; numbered as in the report)


# 1 ------------------------------------------------------------------ DBH (in) and DBH (cm) are alternatives


def test_inch_and_cm_columns_are_alternatives_not_stems():
    s = read_csv_text("Tag,Species,DBH (in),DBH (cm)\n1,red maple,12,50\n2,red maple,,50\n3,red maple,12,30.6\n")
    # row 2: 12 in is used; 50 cm = 50 / 2.54 = 19.69 in disagrees by 7.7 in (> 0.5 in): a warning.
    #        (Before: sqrt(12² + 50²) = 51.4 in, the cm column read as a second stem in inches.)
    # row 3: the inch cell is blank: 50 / 2.54 = 19.685 in.
    # row 4: 30.6 cm = 12.05 in, within 0.5 in of 12 in: no warning.
    assert list(s.trees["dbh_in"]) == pytest.approx([12.0, 19.685, 12.0], abs=1e-3)
    assert list(s.trees["stems"]) == [1, 1, 1]
    w = list(s.trees["warnings"])
    assert "50 cm = 19.7 in" in w[0] and "disagree" in w[0] and "12.0 in used" in w[0]
    assert w[1] == "" and w[2] == ""
    assert s.summary()["columns"] == {"Tag": "tag", "Species": "species", "DBH (in)": "dbh_in", "DBH (cm)": "dbh_cm"}


def test_inch_column_comes_first_even_when_it_is_second():
    s = read_csv_text("Tag,Species,DBH (cm),DBH (in)\n1,red maple,50,12\n2,red maple,50,\n")
    # the inch column is preferred: 12 in; row 3 falls back on 50 cm = 19.69 in
    assert list(s.trees["dbh_in"]) == pytest.approx([12.0, 50 / 2.54])


# 2 ------------------------------------------------------------------ diameters that are not the DBH


@pytest.mark.parametrize(
    "header", ["Crown Diameter (ft)", "Canopy Diameter", "Drip Line Diameter (ft)", "Root Zone Diameter", "DBH Class"]
)
def test_other_diameters_are_not_dbh(header):
    assert match_header(header)[0] is None
    s = read_csv_text(f"Tag,Species,DBH,{header}\n1,red maple,12,30\n")
    # the DBH column alone: 12 in, one stem; the other diameter is listed as not used
    assert s.trees["dbh_in"].iloc[0] == 12.0 and s.trees["stems"].iloc[0] == 1
    assert header in s.summary()["unmapped_columns"]


def test_stump_diameter_is_not_the_dbh_of_a_standing_tree():
    # a stump diameter column is read (for stumps), but a tree with a DBH keeps its DBH
    assert match_header("Stump Diameter")[0] == "stump_diameter"
    s = read_csv_text("Tag,Species,DBH,Stump Diameter\n1,red maple,12,30\n")
    assert s.trees["dbh_in"].iloc[0] == 12.0 and s.trees["stems"].iloc[0] == 1


@pytest.mark.parametrize("header", ["Diameter", "Diameter (in)", "Trunk Diameter", "Diam."])
def test_trunk_diameters_are_still_dbh(header):
    assert match_header(header)[0] == "dbh"


# 3 ------------------------------------------------------------------ feet and metres


@pytest.mark.parametrize(
    "header, value, unit, inches",
    [
        ("DBH (ft)", "1.5", "ft", 18.0),  # 1.5 ft × 12 = 18 in
        ("Diameter (ft)", "2", "ft", 24.0),  # 2 ft × 12 = 24 in
        ("DBH (m)", "0.5", "m", 0.5 * 39.3701),  # 0.5 m × 39.37 = 19.69 in
    ],
)
def test_feet_and_metres_in_the_header(header, value, unit, inches):
    s = read_csv_text(f"Tag,Species,{header}\n1,red maple,{value}\n")
    assert s.trees["dbh_in"].iloc[0] == pytest.approx(inches, abs=1e-3)
    assert s.source["dbh_unit"] == unit


def test_unit_column_feet_converts_and_an_unknown_unit_rejects():
    s = read_csv_text("Tag,Species,DBH,Unit\n1,red maple,1.5,ft\n2,red maple,0.3,m\n3,red maple,2,furlong\n")
    # 1.5 ft = 18 in; 0.3 m = 11.81 in; 'furlong' is no DBH unit: the row is rejected
    assert list(s.trees["dbh_in"]) == pytest.approx([18.0, 0.3 * 100 / 2.54])
    r = s.rejected.iloc[0]
    assert r["kind"] == "unknown DBH unit" and r["column"] == "Unit"
    assert r["reason"].startswith("row 4, column 'Unit': unknown unit 'furlong'")


# 4 ------------------------------------------------------------------ two DBH headers


def test_two_identical_dbh_headers_are_refused():
    # before: sqrt(12² + 30²) = 32.3 in, silently
    with pytest.raises(
        SurveyError,
        match=r"two columns are both read as DBH: 'DBH' \(column C\) and 'DBH' "
        r"\(column D\); use ‹column_map› to choose",  # the keyword: the CLI says --map
    ):
        read_csv_text("Tag,Species,DBH,DBH\n1,red maple,12,30\n")


def test_the_map_resolves_two_dbh_headers():
    s = read_csv_text("Tag,Species,DBH,Diameter\n1,red maple,12,30\n", column_map={"Diameter": "dbh_stem"})
    # mapped as a second stem: sqrt(12² + 30²) = sqrt(1044) = 32.31 in, 2 stems
    assert s.trees["dbh_in"].iloc[0] == pytest.approx(32.3110, abs=1e-4) and s.trees["stems"].iloc[0] == 2


@pytest.mark.parametrize("h2", ["Stem 2", "DBH 2", "Stem DBH", "DBH stem 2"])
def test_stem_like_headers_combine(h2):
    s = read_csv_text(f"Tag,Species,DBH,{h2}\n1,red maple,12,5\n")
    # sqrt(12² + 5²) = sqrt(169) = 13 in, 2 stems
    assert s.trees["dbh_in"].iloc[0] == pytest.approx(13.0) and s.trees["stems"].iloc[0] == 2


# 6 ------------------------------------------------------------------ the Stems column


@pytest.mark.parametrize("value", ["1e308", "inf", "-3", "2.5", "0", "1e6", "many", "51"])
def test_stems_must_be_a_whole_number_from_1_to_50(value):
    s = read_csv_text(f"Tag,Species,DBH,Stems\n1,red maple,12,{value}\n")
    r = s.rejected.iloc[0]
    assert len(s.trees) == 0 and r["kind"] == "stems not valid" and r["column"] == "Stems"
    assert r["reason"] == f"row 2, column 'Stems': {value!r} is not a whole number of stems from 1 to 50"


def test_stems_column_counts_combined_stems():
    s = read_csv_text('Tag,Species,DBH,Stems\n1,red maple,12,3\n2,red maple,12,\n3,red maple,"12, 5",1\n')
    # 3 stems already combined into 12 in; blank: 1 stem; '12, 5' gives 2 stems (13 in) although Stems says 1
    assert list(s.trees["stems"]) == [3, 1, 2]
    assert s.trees["dbh_in"].iloc[2] == pytest.approx(13.0)
    assert "says 1 stem(s) but the DBH gives 2" in s.trees["warnings"].iloc[2]


# 10 ----------------------------------------------------------------- two species columns


def test_two_species_columns_that_disagree_warn():
    s = read_csv_text("Tag,Species Code,Species,DBH\n1,QUAL,red maple,12\n2,ACRU,red maple,12\n")
    # row 2: QUAL (white oak) and red maple (ACRU) differ: the first column is kept, with a warning
    assert list(s.trees["species_code"]) == ["QUAL", "ACRU"]
    w = s.trees["warnings"].iloc[0]
    assert "species columns disagree" in w and "'QUAL'" in w and "'red maple' (ACRU)" in w
    assert s.trees["warnings"].iloc[1] == ""


def test_xlsx_dimension_merge_header_still_stems(tmp_path):
    # a merged "DBH" header over two columns groups them as stems: sqrt(12² + 8²) = 14.42 in
    rows = [["Tag", "Species", "DBH", None], [1, "red maple", 12, 8]]
    s = read_survey(write_xlsx(tmp_path / "m.xlsx", rows, merges=["C1:D1"]))
    assert s.trees["dbh_in"].iloc[0] == pytest.approx(14.4222, abs=1e-4) and s.trees["stems"].iloc[0] == 2
