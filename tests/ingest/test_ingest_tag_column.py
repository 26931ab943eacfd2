"""The tag column of a GIS export: the surveyor's tree number wins over a GIS row id (OBJECTID, FID,
GlobalID), and the read says which column tagged the trees."""

from __future__ import annotations

import pytest

from tests.helpers.ingest import write_text
from treecalc.ingest import read_survey

# An ArcGIS Collector / Field Maps export of a lot's survey: the layer's OBJECTID first (1-based, in the
# order the features were made), the arborist's tree number (the aluminium tag on the trunk), then the rest.
GUID = "{{6A1F0C2E-000{}-4C1B-9E1A-3B5D7F00A10{}}}"
HEADER = ["OBJECTID", "Tree N°", "Species", "DBH_in", "Condition", "Action", "POINT_X", "POINT_Y", "GlobalID"]
ROWS = [
    [1, "101", "Acer rubrum", 14.2, "Good", "Remove", 641000.5, 930100.25, GUID.format(1, 1)],
    [2, "102", "Quercus rubra", 22.0, "Fair", "Retain", 641010.5, 930105.25, GUID.format(2, 2)],
    [3, "105", "Acer saccharum", 9.5, "Good", "Retain", 641020.5, 930110.25, GUID.format(3, 3)],
    [4, "104", "Tilia americana", 11.0, "Poor", "Remove", 641030.5, 930115.25, GUID.format(4, 4)],
]


def _survey(tmp_path, header=HEADER, rows=ROWS, **kw):
    return read_survey(write_text(tmp_path / "gis.csv", [header, *rows]), **kw)


def test_the_surveyors_tree_number_tags_the_trees_not_the_objectid(tmp_path):
    s = _survey(tmp_path)
    assert list(s.trees["tag"]) == ["101", "102", "105", "104"]
    said = [w for w in s.warnings if "tag" in w.lower() and "OBJECTID" in w]
    assert len(said) == 1, s.warnings
    assert "column 'Tree N°' tags the trees" in said[0] and "'OBJECTID', 'GlobalID' are GIS row ids" in said[0]
    assert not any("also looks like tag" in w for w in s.warnings)


@pytest.mark.parametrize("tag_header", ["Tree No.", "Tree #", "Tag", "Tree Number"])
@pytest.mark.parametrize("gis_id", ["OBJECTID", "FID", "GlobalID", "ObjectID_1"])
def test_each_tree_number_header_wins_over_each_gis_id_either_side(tmp_path, tag_header, gis_id):
    for header, rows in (
        ([gis_id, tag_header, "Species", "DBH_in"], [[r[0], r[1], r[2], r[3]] for r in ROWS]),
        ([tag_header, "Species", "DBH_in", gis_id], [[r[1], r[2], r[3], r[0]] for r in ROWS]),
    ):
        s = _survey(tmp_path, header, rows)
        assert list(s.trees["tag"]) == ["101", "102", "105", "104"], (header, s.warnings)
        assert any(f"column {tag_header!r} tags the trees" in w and gis_id in w for w in s.warnings)


def test_a_gis_id_alone_still_tags_and_a_column_map_chooses(tmp_path):
    alone = _survey(tmp_path, ["OBJECTID", "Species", "DBH_in"], [[r[0], r[2], r[3]] for r in ROWS])
    assert list(alone.trees["tag"]) == ["1", "2", "3", "4"]
    # the user's choice wins over the reading: ‹column_map› OBJECTID=tag
    mapped = _survey(tmp_path, column_map={"OBJECTID": "tag"})
    assert list(mapped.trees["tag"]) == ["1", "2", "3", "4"]
    assert any("only 'OBJECTID' is used" in w for w in mapped.warnings)
    # and a later column mapped to the tag is the tag, though another tag column comes first
    later = _survey(
        tmp_path,
        ["Tag", "Species", "DBH_in", "Tree #"],
        [["T" + r[1], r[2], r[3], r[1]] for r in ROWS],
        column_map={"Tree #": "tag"},
    )
    assert list(later.trees["tag"]) == ["101", "102", "105", "104"]
    assert any("only 'Tree #' is used" in w for w in later.warnings)


def test_two_surveyor_columns_keep_the_first_as_before(tmp_path):
    s = _survey(tmp_path, ["Tag", "Tree #", "Species", "DBH_in"], [["T" + r[1], r[1], r[2], r[3]] for r in ROWS])
    assert list(s.trees["tag"]) == ["T101", "T102", "T105", "T104"]
    assert any("column 'Tree #' also looks like tag; only 'Tag' is used" in w for w in s.warnings)
