"""Files a GIS user brings (a GeoJSON layer, a GIS attribute table with STATUS and ACTION, a Survey123 export with
POINT_X/POINT_Y in degrees, a QGIS layer saved with its geometry as WKT) are read as the user meant them, or
refused with exit 2 and a sentence naming what the file looks like: never read as something else with exit 0.

Each file is shaped as the user's: four red maples of 10, 11, 12 and 14 in, each marked for removal, in Croton.
"""

from __future__ import annotations

import io
import json
import sqlite3
import zipfile
from pathlib import Path

import pytest

from treecalc.cli import main
from treecalc.ingest import SurveyError, read_survey
from treecalc.ingest.errors import AmbiguousActionError, NoTreeReadError

DBHS = (10, 11, 12, 14)
LONLAT = ((-73.8901, 41.2101), (-73.8902, 41.2102), (-73.8903, 41.2103), (-73.8904, 41.2104))


def _geojson() -> bytes:
    features = [
        {
            "type": "Feature",
            "geometry": {"type": "Point", "coordinates": list(ll)},
            "properties": {"Tag": i + 1, "Species": "Red maple", "DBH": d, "Action": "Remove"},
        }
        for i, (d, ll) in enumerate(zip(DBHS, LONLAT))
    ]
    # as QGIS and ArcGIS write it: one feature a line
    return (
        '{"type": "FeatureCollection", "features": [\n' + ",\n".join(json.dumps(f) for f in features) + "\n]}\n"
    ).encode()


def _run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- item 1: a file that is no survey


def test_a_geojson_layer_is_read_as_the_user_meant(tmp_path, capsys):
    # before: read as a CSV of 4 rows split at the commas, "Trees accepted: 0", "permit required: no", exit 0;
    # now read as the layer it is (treecalc.ingest.sources.gis): four trees, each placed by its point
    f = tmp_path / "trees.geojson"
    f.write_bytes(_geojson())
    for cmd in ("survey", "assess", "plan"):
        code, out, err = _run(capsys, cmd, str(f))
        assert code == 0, (cmd, out[-500:], err)
    s = read_survey(f)
    assert s.trees["dbh_in"].tolist() == list(DBHS) and set(s.trees["action"]) == {"remove"}
    assert s.trees["longitude"].tolist() == pytest.approx([x for x, _ in LONLAT], abs=1e-9)


def _zipped_shapefile() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for ext in ("shp", "shx", "dbf", "prj"):
            z.writestr(f"trees.{ext}", b"\x00\x00\x27\x0a" + b"\x00" * 96 if ext == "shp" else b"x")
    return buf.getvalue()


def _geopackage(path: Path) -> bytes:
    con = sqlite3.connect(path)
    con.execute("PRAGMA application_id = 1196444487")  # 'GPKG', as GeoPackage 1.2 writes it
    con.execute("CREATE TABLE gpkg_contents (table_name TEXT)")
    con.commit()
    con.close()
    return path.read_bytes()


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("trees.json", "looks like a JSON document"),
        ("trees.pdf", "looks like a PDF document"),
        # GIS files are read as layers (treecalc.ingest.sources.gis): a damaged one is refused naming its format
        ("trees.kml", "cannot be read as a KML file"),
        ("trees.zip", "cannot be read as a Shapefile"),
        ("trees.fgb", "cannot be read as a FlatGeobuf file"),
        ("trees.gpkg", "cannot be read as a GeoPackage"),
        ("trees.shp", "is a Shapefile without its .dbf and .shx beside it"),
    ],
)
def test_every_file_that_is_no_survey_is_refused_naming_what_it_looks_like(tmp_path, name, said):
    data = {
        "trees.json": b'[{"tag": 1, "species": "Red maple", "dbh": 10}]',
        "trees.kml": b'<?xml version="1.0"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document/></kml>',
        "trees.zip": _zipped_shapefile(),
        "trees.fgb": b"fgb\x03fgb\x00" + b"\x00" * 64,
        "trees.pdf": b"%PDF-1.7\n%junk",
        "trees.shp": b"\x00\x00\x27\x0a" + b"\x00" * 96,
    }.get(name) or _geopackage(tmp_path / "x.gpkg")
    f = tmp_path / name
    f.write_bytes(data)
    with pytest.raises(SurveyError) as e:
        read_survey(f)
    assert said in str(e.value), str(e.value)


def test_the_content_decides_not_the_name(tmp_path):
    f = tmp_path / "trees.csv"  # a GeoJSON layer saved under a .csv name is read as the layer it is
    f.write_bytes(_geojson())
    s = read_survey(f)
    assert s.source["format"] == "geojson" and len(s.trees) == 4


def test_a_survey_of_which_no_tree_can_be_read_is_refused(tmp_path, capsys):
    # three rows, none with a DBH that is a number: before, "Trees accepted: 0 ... permit required: no", exit 0
    f = tmp_path / "unreadable.csv"
    f.write_text("Tag,Species,DBH,Action\n1,Red maple,ten,Remove\n2,Red maple,?,Remove\n3,Red maple,n/a,Remove\n")
    for cmd in ("assess", "plan", "survey"):
        code, out, err = _run(capsys, cmd, str(f))
        assert code == 2, (cmd, out[-500:], err)
        assert "no tree could be read from unreadable.csv: 3 rows rejected, first: row 2" in err, err
        assert "permit required" not in out
    # the library: the survey reader gives the rows read and rejected (to be shown), the assessment refuses
    s = read_survey(f)
    assert s.rows_read == 3 and len(s.trees) == 0 and len(s.rejected) == 3
    import treecalc

    with pytest.raises(NoTreeReadError, match="no tree could be read from unreadable.csv: 3 rows rejected"):
        treecalc.assess(f)
    with pytest.raises(NoTreeReadError):
        treecalc.assess(s)
    assert issubclass(NoTreeReadError, SurveyError)


def test_a_header_without_rows_is_refused_too(tmp_path, capsys):
    f = tmp_path / "empty.csv"
    f.write_text("Tag,Species,DBH,Action\n")
    code, _out, err = _run(capsys, "assess", str(f))
    assert code == 2 and "no tree could be read from empty.csv: no rows below the header" in err, err


# ---------------------------------------------------------------- item 2: STATUS and ACTION

GIS_CSV = (
    "OBJECTID,SPECIES,DBH,STATUS,ACTION\n"
    "1,Red maple,10,Alive,Remove\n"
    "2,Red maple,11,Alive,Remove\n"
    "3,Red maple,12,Alive,Remove\n"
    "4,Red maple,14,Alive,Remove\n"
)


def test_status_and_action_are_both_read(tmp_path, capsys):
    # before: STATUS was the action ("Alive": retain), ACTION left out with a warning; no permit, exit 0
    f = tmp_path / "gis.csv"
    f.write_text(GIS_CSV)
    s = read_survey(f)
    assert list(s.trees["action"]) == ["remove"] * 4
    assert s.source["column_map"]["ACTION"] == "action" and s.source["column_map"]["STATUS"] == "status"
    assert not any("also looks like an action" in w for w in s.warnings), s.warnings
    code, out, err = _run(capsys, "assess", str(f))
    assert code == 0, err
    # §208-19A(1): more than 3 trees removed on the lot within 12 months needs a permit: 4 > 3
    assert "Trees marked remove: 4 trees" in out
    assert "Tree removal permit required: yes" in out


def test_a_dead_status_beside_the_action_is_the_condition(tmp_path):
    f = tmp_path / "gis.csv"
    f.write_text("OBJECTID,SPECIES,DBH,STATUS,ACTION\n1,Red maple,10,Dead,Remove\n2,Red maple,11,Good,Retain\n")
    t = read_survey(f).trees
    assert list(t["action"]) == ["remove", "retain"]
    assert list(t["condition"]) == ["dead", "good"]
    assert bool(t["dead_or_diseased"].iloc[0]) is True


def test_two_action_columns_that_disagree_are_refused_naming_both(tmp_path, capsys):
    f = tmp_path / "two.csv"
    f.write_text("Tag,Species,DBH,Action,Recommendation\n1,Red maple,10,Retain,Retain\n2,Red maple,11,Retain,Remove\n")
    with pytest.raises(AmbiguousActionError) as e:
        read_survey(f)
    assert e.value.headers == ("Action", "Recommendation")
    assert "row 3" in str(e.value)
    code, out, err = _run(capsys, "assess", str(f))
    assert code == 2, out[-300:]
    assert "'Action' and 'Recommendation'" in err and '--map "Recommendation=action"' in err, err
    # settled with --map: read as the user says, the other column said and left out
    code, out, err = _run(capsys, "survey", str(f), "--map", "Recommendation=action")
    assert code == 0, err
    assert "remove 1" in out and "'Recommendation' is used" in out
    assert list(read_survey(f, column_map={"Action": "action"}).trees["action"]) == ["retain", "retain"]
    assert list(read_survey(f, column_map={"Action": "ignore"}).trees["action"]) == ["retain", "remove"]


def test_two_action_columns_that_agree_are_read(tmp_path):
    f = tmp_path / "two.csv"
    f.write_text("Tag,Species,DBH,Action,Treatment\n1,Red maple,10,Remove,Removal\n2,Red maple,11,Retain,\n")
    assert list(read_survey(f).trees["action"]) == ["remove", "retain"]


def test_a_stump_status_beside_an_action_that_says_otherwise_is_refused(tmp_path):
    # the status says the tree is gone, the action says it is to be kept: which is the work is the user's to say
    f = tmp_path / "gis.csv"
    f.write_text("OBJECTID,SPECIES,DBH,STATUS,ACTION\n1,Red maple,10,Stump,Retain\n")
    with pytest.raises(AmbiguousActionError, match="'ACTION' and 'STATUS'"):
        read_survey(f)
    # the user's word settles it: ACTION is the action, STATUS the tree's state
    t = read_survey(f, column_map={"ACTION": "action"}).trees
    assert list(t["action"]) == ["retain"]


# ---------------------------------------------------------------- item 3: coordinates in degrees, WKT


def test_survey123_point_x_point_y_in_degrees_are_read_as_wgs84(tmp_path, capsys):
    # before: "the survey has x/y coordinates but no site fact crs", exit 2
    f = tmp_path / "survey123.csv"
    f.write_text(
        "ObjectID,Species,DBH,Action,POINT_X,POINT_Y\n"
        + "".join(f"{i + 1},Red maple,{d},Remove,{x},{y}\n" for i, (d, (x, y)) in enumerate(zip(DBHS, LONLAT)))
    )
    s = read_survey(f)
    assert any("x/y read as WGS84 longitude/latitude" in w for w in s.warnings), s.warnings
    code, out, err = _run(capsys, "assess", str(f), "--json")
    assert code == 0, err
    j = json.loads(out)
    assert any("x/y read as WGS84 longitude/latitude" in w for w in j["warnings"])
    # Croton-on-Hudson (41.21 N, 73.89 W) lies in the Northeast zone: found from the coordinates
    assert j["options"]["zone"]["zone"] == "NoEastXXX" and j["options"]["zone"]["source"] == "tree coordinates"
    # a crs given: the same x/y are projected coordinates in it (the warning is not said)
    code, out, err = _run(capsys, "assess", str(f), "--json", "--site", "crs=EPSG:2263")
    assert code == 0, err
    assert not any("x/y read as WGS84" in w for w in json.loads(out)["warnings"])


def test_projected_x_y_without_crs_are_still_refused(tmp_path, capsys):
    f = tmp_path / "sp.csv"
    f.write_text("Tag,Species,DBH,Action,X,Y\n1,Red maple,10,Remove,672345.5,912345.2\n")
    code, _out, err = _run(capsys, "assess", str(f))
    assert code == 2 and "no site fact crs" in err, err


def test_whole_degrees_are_not_taken_for_wgs84(tmp_path, capsys):
    # no decimal anywhere: a local grid as likely as degrees
    f = tmp_path / "grid.csv"
    f.write_text("Tag,Species,DBH,Action,x,y\n1,Red maple,10,Remove,12,40\n")
    code, _out, err = _run(capsys, "assess", str(f))
    assert code == 2 and "no site fact crs" in err, err


def test_a_qgis_wkt_column_is_read_as_coordinates(tmp_path):
    # before: the WKT column was left unused and the trees had no coordinates
    f = tmp_path / "qgis.csv"
    f.write_text(
        "WKT,fid,Species,DBH,Action\n"
        + "".join(
            f'"POINT ({x} {y})",{i + 1},Red maple,{d},Remove\n' for i, (d, (x, y)) in enumerate(zip(DBHS, LONLAT))
        )
    )
    s = read_survey(f)
    assert s.source["column_map"]["WKT"] == "wkt"
    assert list(s.trees["x"]) == [x for x, _ in LONLAT] and list(s.trees["y"]) == [y for _, y in LONLAT]
    assert any("x/y read as WGS84 longitude/latitude" in w for w in s.warnings)
    import treecalc

    a = treecalc.assess(s)
    assert a.options["zone"]["source"] == "tree coordinates"


def test_a_wkt_column_of_polygons_is_refused_naming_the_type_and_row(tmp_path):
    f = tmp_path / "canopy.csv"
    f.write_text(
        "AS_WKT,Species,DBH,Action\n"
        '"POINT (-73.89 41.21)",Red maple,10,Remove\n'
        '"POLYGON ((0 0, 1 0, 1 1, 0 0))",Red maple,11,Remove\n'
    )
    with pytest.raises(SurveyError, match=r"row 3, column 'AS_WKT': a Polygon"):
        read_survey(f)


# ------------------------------------------- coordinates swapped, mistyped, in EWKT / MULTIPOINT, or in two places

CHARLOTTE_XY = (-80.8431, 35.2271)  # Charlotte, NC: the Piedmont zone (PiedmtCLT)


def test_swapped_point_x_point_y_are_refused_saying_how_to_settle_it(tmp_path, capsys):
    # before: lon 35.2271, lat -80.8431 (off Antarctica) read as given, valued on the Northeast tables, exit 0
    f = tmp_path / "swapped.csv"
    f.write_text(
        "ObjectID,Species,DBH,Action,POINT_X,POINT_Y\n"
        f"1,Red maple,12,Remove,{CHARLOTTE_XY[1]},{CHARLOTTE_XY[0]}\n"
        f"2,Red maple,10,Remove,{CHARLOTTE_XY[1] + 0.001},{CHARLOTTE_XY[0]}\n"
    )
    with pytest.raises(SurveyError, match=r"'POINT_X' and 'POINT_Y' look swapped.*row 2.*PiedmtCLT"):
        read_survey(f)
    code, _out, err = _run(capsys, "assess", str(f))
    assert code == 2, err
    assert "look swapped" in err and '--map "POINT_X=latitude"' in err and '--map "POINT_Y=longitude"' in err, err
    # the same columns the right way round are read (Charlotte: the Piedmont)
    f.write_text(
        f"ObjectID,Species,DBH,Action,POINT_X,POINT_Y\n1,Red maple,12,Remove,{CHARLOTTE_XY[0]},{CHARLOTTE_XY[1]}\n"
    )
    assert any("x/y read as WGS84" in w for w in read_survey(f).warnings)


def test_one_mistyped_y_among_degrees_is_named_by_row_and_value(tmp_path, capsys):
    # before: "the survey has x/y coordinates but no site fact crs", naming neither the row nor the value
    f = tmp_path / "typo.csv"
    rows = [(x, y) for x, y in LONLAT]
    rows[2] = (rows[2][0], 4121.02)  # the decimal point dropped in row 4's POINT_Y
    f.write_text(
        "ObjectID,Species,DBH,Action,POINT_X,POINT_Y\n"
        + "".join(f"{i + 1},Red maple,{d},Remove,{x},{y}\n" for i, (d, (x, y)) in enumerate(zip(DBHS, rows)))
    )
    code, _out, err = _run(capsys, "assess", str(f))
    assert code == 2, err
    assert "row 4: y 4121.02 is not a latitude (-90 to 90)" in err, err


def _qgis(tmp_path, cells):
    f = tmp_path / "qgis.csv"
    f.write_text(
        "WKT,fid,Species,DBH,Action\n" + "".join(f'"{c}",{i + 1},Red maple,10,Remove\n' for i, c in enumerate(cells))
    )
    return f


def test_a_multipoint_of_one_point_and_ewkt_are_read(tmp_path):
    # before: both refused the whole survey ("a MultiPoint geometry, not a point"; "not WKT geometry")
    s = read_survey(_qgis(tmp_path, [f"MULTIPOINT (({x} {y}))" for x, y in LONLAT]))
    assert list(s.trees["x"]) == [x for x, _ in LONLAT] and list(s.trees["y"]) == [y for _, y in LONLAT]
    s = read_survey(_qgis(tmp_path, [f"SRID=4326;POINT({x} {y})" for x, y in LONLAT]))
    assert list(s.trees["longitude"]) == [x for x, _ in LONLAT] and list(s.trees["latitude"]) == [y for _, y in LONLAT]
    # EPSG:2263 (NY Long Island, US ft): 1,000,000 ft E, 200,000 ft N (Manhattan), projected by pyproj as the crs fact would be
    from treecalc.reference.geo import to_wgs84

    lon, lat = to_wgs84([1000000.0], [200000.0], "EPSG:2263")
    s = read_survey(_qgis(tmp_path, ["SRID=2263;POINT (1000000 200000)"]))
    assert s.trees["longitude"].iloc[0] == pytest.approx(lon[0], abs=1e-9)
    assert s.trees["latitude"].iloc[0] == pytest.approx(lat[0], abs=1e-9)
    assert 40.6 < lat[0] < 40.8 and -74.1 < lon[0] < -73.9  # Manhattan


def test_a_multipoint_of_several_points_is_refused_naming_the_row(tmp_path):
    f = _qgis(tmp_path, ["POINT (-73.89 41.21)", "MULTIPOINT ((-73.89 41.21), (-73.88 41.22))"])
    with pytest.raises(SurveyError, match=r"row 3, column 'WKT': a MultiPoint geometry of 2 points"):
        read_survey(f)


def test_a_wkt_column_and_x_y_that_disagree_are_refused_naming_both(tmp_path):
    # before: X/Y silently won, the WKT column dropped with a warning
    f = tmp_path / "both.csv"
    f.write_text(
        "WKT,fid,Species,DBH,Action,X,Y\n"
        '"POINT (-73.89 41.21)",1,Red maple,10,Remove,-73.89,41.21\n'
        '"POINT (-73.89 41.21)",2,Red maple,11,Remove,-73.88,41.21\n'
    )
    with pytest.raises(SurveyError, match=r"row 3: the columns 'WKT' give -73.89, 41.21 and the columns 'X'/'Y'"):
        read_survey(f)
    f.write_text(
        "WKT,fid,Species,DBH,Action,X,Y\n"
        '"POINT (-73.89 41.21)",1,Red maple,10,Remove,-73.89,41.21\n'
        '"POINT (-73.88 41.21)",2,Red maple,11,Remove,-73.88,41.21\n'
    )
    s = read_survey(f)
    assert any("'WKT' and 'X'/'Y' place every tree alike: 'X'/'Y' read" in w for w in s.warnings), s.warnings


def test_point_x_y_beside_latitude_longitude_that_disagree_are_refused(tmp_path, capsys):
    # before: Latitude/Longitude silently won over POINT_X/POINT_Y, no word
    f = tmp_path / "both.csv"
    f.write_text(
        "ObjectID,Species,DBH,Action,POINT_X,POINT_Y,Latitude,Longitude\n"
        "1,Red maple,10,Remove,-73.8901,41.2101,41.2101,-73.8901\n"
        "2,Red maple,11,Remove,-80.8431,35.2271,41.2102,-73.8902\n"
    )
    code, _out, err = _run(capsys, "assess", str(f))
    assert code == 2, err
    assert "row 3: the columns 'POINT_X'/'POINT_Y' place the tree at longitude -80.8431" in err, err
    assert "'Longitude'/'Latitude' at longitude -73.8902, latitude 41.2102" in err, err
    f.write_text(
        "ObjectID,Species,DBH,Action,POINT_X,POINT_Y,Latitude,Longitude\n"
        "1,Red maple,10,Remove,-73.8901,41.2101,41.2101,-73.8901\n"
    )
    s = read_survey(f)
    said = [w for w in s.warnings if "place every tree alike" in w]
    assert said == [
        "the columns 'POINT_X'/'POINT_Y' and 'Longitude'/'Latitude' place every tree alike: 'Longitude'/'Latitude' read"
    ], s.warnings
