"""Surveys as GIS and field apps export them, generated here: split name columns with projected
coordinates, a municipal inventory shaped like the NYC Street Tree Census, genus-only notations,
a 2,000-tree survey whose warnings come out grouped, and bulk species fixes."""

from __future__ import annotations

import json
import random

import pytest

from tests.helpers.ingest import write_text
from treecalc.cli import main
from treecalc.ingest import read_survey
from treecalc.ingest.survey import group_warnings
from treecalc.reference import data
from treecalc.report.json import assessment_json

# ------------------------------------------------------------------ a GIS export (ArcGIS / TreeKeeper style)

GIS_HEADER = ["OBJECTID", "GENUS", "SPECIES", "CULTIVAR", "COMMON_NAME", "DBH", "CONDITION", "POINT_X", "POINT_Y"]
# (genus, species, cultivar, common name as such exports write it, expected code)
GIS_NAMES = [
    ("Acer", "platanoides", "", "Maple, Norway", "ACPL"),
    ("Acer", "platanoides", "Crimson King", "Norway maple", "ACPL"),  # a cultivar is valued as its species
    ("Acer", "rubrum", "October Glory", "Red maple", "ACRU"),
    ("Quercus", "rubra", "", "Oak, northern red", "QURU"),
    ("Quercus", "palustris", "", "Pin oak", "QUPA"),
    ("Liriodendron", "tulipifera", "", "Tulip tree", "LITU"),
    ("Gleditsia", "triacanthos var. inermis", "Skyline", "Thornless honeylocust", None),
    ("Acer", "saccharum", "", "Sugar maple", "ACSA2"),
    ("Tilia", "cordata", "Greenspire", "Littleleaf linden", None),
    ("Prunus", "serotina", "", "Black cherry", "PRSE1"),
]


def _gis_rows(n: int = 250) -> list[list]:
    rows = [GIS_HEADER]
    for i in range(n):
        g, s, cv, common, _ = GIS_NAMES[i % len(GIS_NAMES)]
        rows.append([i + 1, g, s, cv, common, 6 + i % 30, "Good", 641_000.5 + 10 * i, 930_100.25 + 5 * i])
    return rows


def test_gis_export_with_split_name_columns_resolves_every_tree_to_its_species(tmp_path):
    s = read_survey(write_text(tmp_path / "gis.csv", _gis_rows()))
    assert s.rows_read == 250 == len(s.trees) + len(s.rejected)
    assert len(s.rejected) == 0
    # genus + species (+ cultivar) make one scientific name; never a genus-only reading
    assert not set(s.trees["species_method"]) & {"genus", "fuzzy"}
    assert s.trees["species"].iloc[1] == "Acer platanoides 'Crimson King'"
    for k, (_, _, _, _, code) in enumerate(GIS_NAMES):
        if code:
            assert s.trees["species_code"].iloc[k] == code, GIS_NAMES[k]
    # the common-name column confirms: no "columns disagree" warning on any tree
    assert not s.trees["warnings"].str.contains("disagree").any()
    # Norway maple (and its cultivar) keeps its invasive status: regulated under 6 NYCRR Part 575
    cat = data.catalogue()
    norway = s.trees[s.trees["species"].str.startswith("Acer platanoides")]
    assert len(norway) == 50 and set(cat.loc[norway["species_code"], "part575"]) == {"regulated"}
    # projected coordinates are kept as x / y (POINT_X / POINT_Y); no latitude/longitude invented
    assert s.trees["x"].iloc[3] == pytest.approx(641_030.5) and s.trees["y"].iloc[3] == pytest.approx(930_115.25)
    assert "latitude" not in s.trees.columns and s.source["coordinates"] == ["x", "y"]


def test_split_columns_genus_only_and_real_disagreement(tmp_path):
    rows = [
        GIS_HEADER,
        [1, "Quercus", "", "", "Oak", 10, "", "", ""],
        [2, "Acer", "sp.", "", "", 12, "", "", ""],
        [3, "Acer", "rubrum", "", "Sugar maple", 14, "", "", ""],
    ]
    s = read_survey(write_text(tmp_path / "gis.csv", rows))
    assert list(s.trees["species_code"]) == ["QU", "AC", "ACRU"]
    w = list(s.trees["warnings"])
    assert "disagree" not in w[0] and "disagree" not in w[1]
    assert "species columns disagree" in w[2] and "ACSA2" in w[2]  # red maple is not sugar maple: told


# ------------------------------------------------------------------ a census-shaped municipal inventory

CENSUS_HEADER = [
    "tree_id",
    "block_id",
    "created_at",
    "tree_dbh",
    "stump_diam",
    "curb_loc",
    "status",
    "health",
    "spc_latin",
    "spc_common",
    "steward",
    "guards",
    "sidewalk",
    "problems",
    "address",
    "zipcode",
    "latitude",
    "longitude",
    "x_sp",
    "y_sp",
]


def _census_rows() -> list[list]:
    live = [
        ("Platanus x acerifolia", "London planetree", 21),
        ("Gleditsia triacanthos var. inermis", "honeylocust", 9),
        ("Quercus palustris", "pin oak", 16),
        ("Acer rubrum", "red maple", 11),
        ("Tilia cordata", "littleleaf linden", 7),
        ("Pyrus calleryana", "Callery pear", 6),
        ("Zelkova serrata", "Japanese zelkova", 12),
    ]
    rows = [CENSUS_HEADER]
    for k, (lat, com, d) in enumerate(live):
        rows.append(
            [
                180683 + k,
                348711,
                "08/27/2015",
                d,
                0,
                "OnCurb" if k != 3 else "OffsetFromCurb",
                "Alive",
                "Good" if k % 2 else "Fair",
                lat,
                com,
                "None",
                "None",
                "NoDamage",
                "None",
                f"{100 + k} MAIN ST",
                11375,
                40.72309 + k / 1e4,
                -73.84422 - k / 1e4,
                1027431 + k,
                202756 + k,
            ]
        )
    rows.append(
        [
            180690,
            348711,
            "08/27/2015",
            14,
            0,
            "OnCurb",
            "Dead",
            "",
            "Acer saccharinum",
            "silver maple",
            "",
            "",
            "",
            "",
            "110 MAIN ST",
            11375,
            40.7231,
            -73.8443,
            1027440,
            202760,
        ]
    )
    rows.append(
        [
            180691,
            348711,
            "08/27/2015",
            8,
            0,
            "OnCurb",
            "Dead",
            "",
            "Acer platanoides",
            "Norway maple",
            "",
            "",
            "",
            "",
            "112 MAIN ST",
            11375,
            40.7232,
            -73.8444,
            1027441,
            202761,
        ]
    )
    rows.append(
        [
            180692,
            348711,
            "08/27/2015",
            0,
            16,
            "OnCurb",
            "Stump",
            "",
            "Quercus rubra",
            "northern red oak",
            "",
            "",
            "",
            "",
            "114 MAIN ST",
            11375,
            40.7233,
            -73.8445,
            1027442,
            202762,
        ]
    )
    return rows


def test_census_status_is_not_an_action(tmp_path):
    s = read_survey(write_text(tmp_path / "census.csv", _census_rows()))
    assert s.rows_read == 10 == len(s.trees) and len(s.rejected) == 0
    t = s.trees.set_index("tag")
    # no invented removals: 7 alive and 2 dead trees are retained, the stump is a removal already done
    assert (t["action"] == "remove").sum() == 0
    assert list(t["action"]) == ["retain"] * 9 + ["removed"]
    assert list(t["dead_or_diseased"]) == [False] * 7 + [True, True, False]
    # the stump is measured at its stump: tree_dbh 0, stump_diam 16 → 16 in (§208-17)
    assert t.loc["180692", "dbh_in"] == 16.0 and "§208-17" in t.loc["180692", "warnings"]
    # curb_loc OnCurb marks a street tree, OffsetFromCurb does not
    assert t.loc["180686", "street_tree"] == False and t["street_tree"].sum() == 9  # noqa: E712
    assert t.loc["180683", "condition"] == "fair" and t.loc["180684", "condition"] == "good"
    assert t.loc["180683", "latitude"] == pytest.approx(40.72309) and t.loc["180683", "x"] == 1027431
    assert s.summary()["actions"] == {
        "retain": 9,
        "remove": 0,
        "removed": 1,
        "topped": 0,
        "excessively_pruned": 0,
        "damaged": 0,
        "transplant": 0,
    }


def test_census_assessment_values_the_stump_at_its_stump_diameter(tmp_path):
    from treecalc.assessment import assess

    a = assess(str(write_text(tmp_path / "census.csv", _census_rows())))
    j = assessment_json(a)
    assert j["trees_removed"] == 1  # the stump only; no living tree became a proposed removal
    stump = a.trees.set_index("tag").loc["180692"]
    assert stump["dbh_in"] == 16.0 and stump["action"] == "removed"


# ------------------------------------------------------------------ genus-only notations


def test_genus_only_notations_resolve_to_the_genus(tmp_path):
    rows = [
        ["Tag", "Species", "DBH"],
        [1, "Oak sp.", 10],
        [2, "Maple spp.", 12],
        [3, "Quercus spp.", 14],
        [4, "Mulberry / Morus sp.", 9],
        [5, "oak SP", 8],
    ]
    s = read_survey(write_text(tmp_path / "g.csv", rows))
    assert len(s.rejected) == 0
    # QU Quercus sp. (Oak), AC Acer sp. (Maple); Morus has no genus row, and its two catalogue
    # species (MOAL, MORU) are both BDM (broadleaf deciduous medium): valued as the BDM OTHER group
    assert list(s.trees["species_code"]) == ["QU", "AC", "QU", "BDM OTHER", "QU"]
    assert set(s.trees["species_method"]) == {"genus"}
    assert all("genus only" in w for w in s.trees["warnings"])


# ------------------------------------------------------------------ grouped warnings


def _big_rows(n: int = 2000) -> list[list]:
    rnd = random.Random(13)
    rows = [["Tag", "Species", "DBH", "Condition", "Action"]]
    for i in range(1, n + 1):
        sp = "Red Mapel" if i % 9 == 4 else rnd.choice(["Acer rubrum", "Quercus alba", "Sugar maple"])
        tag = "" if i % 50 == 7 else i
        cond = "meh" if i % 13 == 0 else "Good"
        rows.append([tag, sp, rnd.randint(4, 30), cond, "Retain"])
    return rows


def test_two_thousand_tree_warnings_come_out_grouped(tmp_path, capsys):
    p = write_text(tmp_path / "big.csv", _big_rows())
    s = read_survey(p)
    grouped = s.grouped_warnings()
    detail = s.row_warnings()
    # row 2 is tree 1; 'Red Mapel' on trees 4, 13, 22, ... (i % 9 == 4): 222 trees
    red = [g for g in grouped if "Red Mapel" in g]
    assert red == ["fuzzy match: 'Red Mapel' → Acer rubrum (ACRU), 89%: 222 rows (5, 14, 23, 32, 41, …)"]
    # blank tags on trees 7, 57, ... (40 trees), conditions 'meh' on every 13th tree (153 trees)
    assert any(g.startswith("no tag in column 'Tag'; tagged row-N: 40 rows (8, 58, 108") for g in grouped)
    assert any(g.startswith("condition 'meh' not recognised") and ": 153 rows (" in g for g in grouped)
    assert len(grouped) == len(set(grouped)) <= 3 + len(s.warnings)
    assert len(detail) == len(s.trees[s.trees["warnings"] != ""]) > 350
    # the CLI prints the grouped lines; the JSON keeps every row's warning in warnings_detail
    assert main(["survey", str(p)]) == 0
    out = capsys.readouterr().out
    assert out.count("Red Mapel") == 1 and "222 rows" in out
    assert main(["survey", str(p), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["warnings"] == grouped and len(d["warnings_detail"]) == len(s.warnings) + len(detail)


def test_group_warnings_counts_each_issue_of_a_row():
    lines = group_warnings([(4, "a; b"), (4, "dead tree"), (9, "a; b"), (17, "tagged row-17"), (18, "tagged row-18")])
    assert lines == ["a; b: 2 rows (4, 9)", "dead tree: row 4", "tagged row-N: 2 rows (17, 18)"]


# ------------------------------------------------------------------ bulk species fixes


def test_species_map_fixes_every_row_with_the_same_text(tmp_path, capsys):
    rows = [
        ["Tag", "Species", "DBH"],
        [1, "Oak sp.", 10],
        [2, "oak SP.", 12],
        [3, "Acer rubrum", 14],
        [4, "Mystery tree", 9],
        [5, "Mystery tree", 11],
    ]
    p = write_text(tmp_path / "s.csv", rows)
    s = read_survey(p, species_map={"Oak sp.": "Quercus rubra", "Mystery tree": "Tilia americana"})
    assert list(s.trees["species_code"]) == ["QURU", "QURU", "ACRU", "TIAM", "TIAM"]
    assert "species 'Oak sp.' read as 'Quercus rubra' (species map)" in s.trees["warnings"].iloc[0]
    # the CLI: --species-map repeatable, and a CSV map file
    assert (
        main(
            [
                "survey",
                str(p),
                "--json",
                "--species-map",
                "Oak sp.=Quercus rubra",
                "--species-map",
                "Mystery tree=Tilia americana",
            ]
        )
        == 0
    )
    d = json.loads(capsys.readouterr().out)
    assert d["trees"] == 5 and d["rejected"] == 0
    mp = tmp_path / "fixes.csv"
    mp.write_text("text,species\nMystery tree,Tilia americana\n")
    assert main(["survey", str(p), "--json", "--species-map", str(mp)]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["trees"] == 5 and d["rejected"] == 0  # the Oak sp. rows resolve to the genus without a fix
    assert main(["survey", str(p), "--species-map", "nonsense"]) == 2
    assert "--species-map 'nonsense': expected TEXT=SPECIES" in capsys.readouterr().err
