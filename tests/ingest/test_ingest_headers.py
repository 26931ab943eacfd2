"""Header variants, title rows, merged cells, units, stems, totals rows, column maps."""

from __future__ import annotations

import math

import pytest
from ingest_builders import write_text, write_xlsx

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
    yes = ["Y", "Yes", "X", "TRUE", "1", "✓", "x", "yes", "High", "y", "true", "1"]
    no = ["N", "No", "", "FALSE", "0", "", "", "no", "Low", "n", "false", "0"]
    rows = [
        header,
        ["1", "Acer rubrum", "15", *yes, "85", "Single family", "near drive", "check roots"],
        ["2", "Acer rubrum", "15", *no, "250.5", "park", "", ""],
    ]
    s = read_survey(write_text(tmp_path / "s.csv", rows))
    from treecalc.ingest import FLAG_FIELDS

    assert set(s.source["column_map"].values()) >= set(FLAG_FIELDS)
    for f in FLAG_FIELDS:
        assert str(s.trees[f].dtype) == "boolean"
        assert list(s.trees[f]) == [True, False], f
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
