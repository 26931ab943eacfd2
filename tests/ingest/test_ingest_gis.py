"""GIS layers read as surveys: each format assesses to the same figures as the same trees in a CSV; points
give the coordinates (reprojected from the layer's own system); shapes, bombs and nesting are refused."""

from __future__ import annotations

import json
import math
import time
import zipfile
from pathlib import Path

import geopandas as gpd
import pandas as pd
import pytest
from shapely.geometry import LineString, Point, Polygon

from treecalc.cli import main
from treecalc.ingest import SurveyError, read_survey
from treecalc.report.layers import sidecar

# Four trees on a lot in Croton-on-Hudson and a row whose species no list knows (rejected in every format).
TREES = pd.DataFrame(
    {
        "Tag": ["101", "102", "103", "104", "105"],
        "Species": ["Acer rubrum", "Quercus alba", "Sugar maple", "Pinus strobus", "Zzyzx tree"],
        "DBH": [12.0, 20.5, 8.0, 15.25, 10.0],
        "Action": ["retain", "remove", "remove", "retain", "remove"],
    }
)
LON = [-73.8912345, -73.8911111, -73.8909876, -73.8908642, -73.8907407]
LAT = [41.2081234, 41.2082222, 41.2083456, 41.2084691, 41.2085925]


def _layer(crs: int = 4326) -> gpd.GeoDataFrame:
    g = gpd.GeoDataFrame(TREES.copy(), geometry=[Point(x, y) for x, y in zip(LON, LAT)], crs=4326)
    return g if crs == 4326 else g.to_crs(crs)


def _csv(tmp_path: Path) -> Path:
    p = tmp_path / "trees.csv"
    # DBH as a surveyor types it ("10", not pandas' "10.0": the rejected row shows its cell as written)
    TREES.assign(DBH=[f"{d:g}" for d in TREES["DBH"]], latitude=LAT, longitude=LON).to_csv(p, index=False)
    return p


def _write(tmp_path: Path, fmt: str) -> Path:
    """The trees written by pyogrio in ``fmt``: a GeoPackage of two layers, a zipped Shapefile in EPSG:2263
    (NAD83 / New York Long Island, US feet), GeoJSON, FlatGeobuf, KML."""
    if fmt == "gpkg":
        p = tmp_path / "trees.gpkg"
        _layer().to_file(p, layer="trees", engine="pyogrio")
        plots = gpd.GeoDataFrame(
            {"Lot": ["A"]}, geometry=[Polygon([(-73.9, 41.2), (-73.88, 41.2), (-73.88, 41.21)])], crs=4326
        )
        plots.to_file(p, layer="lots", engine="pyogrio")
        return p
    if fmt == "shp":
        folder = tmp_path / "shp"
        folder.mkdir()
        _layer(2263).to_file(folder / "trees.shp", engine="pyogrio")
        p = tmp_path / "trees.zip"
        with zipfile.ZipFile(p, "w", zipfile.ZIP_DEFLATED) as zf:
            for part in sorted(folder.iterdir()):
                zf.write(part, part.name)
        return p
    driver = {"geojson": "GeoJSON", "fgb": "FlatGeobuf", "kml": "KML"}[fmt]
    p = tmp_path / f"trees.{fmt}"
    # FlatGeobuf's spatial index sorts the features along a curve: without it they stay in the CSV's order
    options = {"SPATIAL_INDEX": "NO"} if fmt == "fgb" else {}
    _layer().to_file(p, driver=driver, engine="pyogrio", layer_options=options)
    return p


def _assess_json(capsys, *args: str) -> dict:
    assert main(["assess", *args, "--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def _same(a, b, where: str = "") -> None:
    """The same JSON, numbers within 1e-9 (a reprojection round trip moves a coordinate by ~1e-10 degrees); a
    rejected row's raw cell is the CSV's text where the layer has its number."""
    if isinstance(a, (int, float)) and isinstance(b, str) and ".raw." in where:
        b = float(b)
    if isinstance(a, float) or isinstance(b, float):
        assert isinstance(a, (int, float)) and isinstance(b, (int, float)), where
        assert math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-9) or (math.isnan(a) and math.isnan(b)), where
    elif isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), (where, set(a) ^ set(b))
        for k in a:
            _same(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{where}[{i}]")
    else:
        assert a == b, (where, a, b)


@pytest.mark.parametrize("fmt", ["gpkg", "shp", "geojson", "fgb", "kml"])
def test_each_format_assesses_to_the_same_figures_as_the_csv(tmp_path, capsys, fmt):
    p = _write(tmp_path, fmt)
    layer = ["--layer", "trees"] if fmt == "gpkg" else []
    got = _assess_json(capsys, str(p), *layer)
    want = _assess_json(capsys, str(_csv(tmp_path)))
    # four trees assessed, the unknown species rejected in both: 5 rows read = 4 + 1
    assert got["rows_read"] == 5 and got["rejected"] == 1 and got["trees_removed"] == 2
    got.pop("fingerprint"), want.pop("fingerprint")  # the file's name and bytes
    if fmt == "shp":  # the layer's own system is said (the points went through it and back: within 1e-9 degrees)
        said = "coordinates of layer 'trees' reprojected from EPSG:2263 to WGS84 latitude/longitude"
        assert said in got["warnings"]
        got["warnings"].remove(said)
    got["options"].get("read", {}).pop("layer", None)
    _same(got, want)


@pytest.mark.parametrize("fmt", ["gpkg", "shp", "geojson", "fgb", "kml"])
def test_points_give_each_tree_its_coordinates_to_1e7_degrees(tmp_path, fmt):
    s = read_survey(_write(tmp_path, fmt), layer="trees" if fmt == "gpkg" else None)
    t = s.trees.set_index("tag")
    assert list(t.index) == ["101", "102", "103", "104"]
    for tag, lon, lat in zip(TREES["Tag"], LON, LAT):
        if tag in t.index:
            assert abs(t.at[tag, "longitude"] - lon) < 1e-7 and abs(t.at[tag, "latitude"] - lat) < 1e-7
    assert s.source["format"] == fmt
    assert list(s.rejected["tag"]) == ["105"] and list(s.rejected["kind"]) == ["unresolved species"]


def test_a_shapefile_beside_its_parts_is_read_and_its_crs_named(tmp_path):
    _layer(2263).to_file(tmp_path / "trees.shp", engine="pyogrio")
    s = read_survey(tmp_path / "trees.shp")
    assert len(s.trees) == 4
    assert any("reprojected from EPSG:2263" in w for w in s.warnings)
    (tmp_path / "trees.dbf").unlink()
    with pytest.raises(SurveyError, match=r"without its \.dbf"):
        read_survey(tmp_path / "trees.shp")


def test_several_layers_without_layer_exit_2_listing_them(tmp_path, capsys):
    p = _write(tmp_path, "gpkg")
    assert main(["survey", str(p)]) == 2
    err = capsys.readouterr().err
    assert "2 layers" in err and "'trees' (Point)" in err and "'lots' (Polygon)" in err and "--layer" in err
    assert main(["assess", str(p), "--layer", "nope"]) == 2
    assert "no layer 'nope'" in capsys.readouterr().err
    assert main(["survey", str(p), "--layer", "trees"]) == 0
    assert capsys.readouterr().out.startswith("trees.gpkg (gpkg), layer 'trees'\nrows read 5: 4 trees, 1 rejected")


@pytest.mark.parametrize(
    ("shape", "kind"),
    [
        (Polygon([(0, 0), (1, 0), (1, 1)]), "Polygon"),
        (LineString([(0, 0), (1, 1)]), "LineString"),
    ],
)
def test_shapes_are_refused_naming_the_geometry_type_and_the_feature(tmp_path, shape, kind):
    g = _layer()
    g.loc[2, "geometry"] = shape  # the third feature
    p = tmp_path / "t.geojson"
    g.to_file(p, driver="GeoJSON", engine="pyogrio")
    with pytest.raises(SurveyError, match=rf"{kind} geometry \(feature 3, row 4, is a {kind}"):
        read_survey(p)


def test_a_layer_without_a_crs_keeps_x_y_for_the_crs_site_fact(tmp_path):
    _layer(2263).to_file(tmp_path / "trees.shp", engine="pyogrio")
    (tmp_path / "trees.prj").unlink()
    s = read_survey(tmp_path / "trees.shp")
    assert {"x", "y"} <= set(s.trees.columns) and "latitude" not in s.trees.columns
    assert any("no coordinate system" in w and "crs=EPSG:2263" in w for w in s.warnings)
    from treecalc.reference.geo import tree_lonlat

    ll = tree_lonlat(s.trees, {"crs": "EPSG:2263"})
    assert ll is not None and len(ll) == 4
    assert abs(ll["longitude_deg"].iloc[0] - LON[0]) < 1e-7 and abs(ll["latitude_deg"].iloc[0] - LAT[0]) < 1e-7


def _refused_fast(capsys, *args: str) -> str:
    t0 = time.monotonic()
    assert main(["survey", *args]) == 2
    assert time.monotonic() - t0 < 20
    return capsys.readouterr().err


def test_a_zip_bomb_is_refused_in_seconds(tmp_path, capsys):
    _layer(2263).to_file(tmp_path / "trees.shp", engine="pyogrio")
    p = tmp_path / "bomb.zip"
    with zipfile.ZipFile(p, "w", zipfile.ZIP_DEFLATED) as zf:
        for part in ("trees.shp", "trees.shx", "trees.prj"):
            zf.write(tmp_path / part, part)
        zf.writestr("trees.dbf", b"\0" * 50_000_000)  # 50 MB of zeros: ~50 KB compressed
    err = _refused_fast(capsys, str(p))
    assert "zip bomb" in err and "trees.dbf" in err


def test_an_enormous_dbf_is_refused_in_seconds(tmp_path, capsys):
    _layer(2263).to_file(tmp_path / "trees.shp", engine="pyogrio")
    with open(tmp_path / "trees.dbf", "r+b") as fh:
        fh.truncate(2_000_000_000)  # a 2 GB .dbf (sparse: nothing written)
    err = _refused_fast(capsys, str(tmp_path / "trees.shp"))
    assert "2000" in err and "over the 50 MB limit" in err


def test_a_dbf_declaring_billions_of_records_reads_the_records_it_holds(tmp_path):
    _layer(2263).to_file(tmp_path / "trees.shp", engine="pyogrio")
    with open(tmp_path / "trees.dbf", "r+b") as fh:
        fh.seek(4)
        fh.write((2_000_000_000).to_bytes(4, "little"))  # the header's record count, a lie
    t0 = time.monotonic()
    s = read_survey(tmp_path / "trees.shp", isolated=True)  # GDAL counts the records the file's size holds
    assert time.monotonic() - t0 < 20 and s.rows_read == 5 and len(s.trees) == 4


def test_a_layer_of_more_features_than_the_row_limit_is_refused(tmp_path):
    from treecalc.ingest.limits import Limits

    with pytest.raises(SurveyError, match=r"holds 5 features, over the limit of 4 rows of a sheet \(rows\)"):
        read_survey(_write(tmp_path, "geojson"), limits=Limits(rows=4))


def test_a_geojson_of_a_million_nested_arrays_is_refused_in_seconds(tmp_path, capsys):
    p = tmp_path / "deep.geojson"
    p.write_bytes(
        b'{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":'
        b'{"type":"Point","coordinates":' + b"[" * 1_000_000 + b"]" * 1_000_000 + b"}}]}"
    )
    err = _refused_fast(capsys, str(p))
    assert "deep.geojson cannot be read as a GeoJSON file" in err and "nested" in err


def test_a_kml_declaring_entities_is_refused(tmp_path, capsys):
    p = tmp_path / "laughs.kml"
    p.write_text(
        '<?xml version="1.0"?><!DOCTYPE kml [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>'
        '<kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>&b;</name>'
        "<Point><coordinates>-73.89,41.2</coordinates></Point></Placemark></Document></kml>"
    )
    err = _refused_fast(capsys, str(p))
    assert "DTD or XML entities" in err


def test_layer_on_a_spreadsheet_is_refused_naming_sheet(tmp_path, capsys):
    assert main(["survey", str(_csv(tmp_path)), "--layer", "trees"]) == 2
    assert "is not a GIS file" in capsys.readouterr().err


def test_without_the_gis_extra_a_layer_is_refused_naming_it(tmp_path, monkeypatch):
    p = _write(tmp_path, "geojson")
    monkeypatch.setitem(__import__("sys").modules, "pyogrio", None)  # as if not installed: import raises
    with pytest.raises(SurveyError, match=r"trees.geojson is a GeoJSON file; .*pip install 'treecalc\[gis\]'"):
        read_survey(p)


# ------------------------------------------------------------------ writing: --out trees.gpkg / .geojson / .fgb


def test_a_survey_written_as_a_geopackage_reads_back_to_the_same_assessment(tmp_path, capsys):
    # the CSV's four trees, removals and a violation (penalties per tree), a tree with no coordinates among them
    csv = tmp_path / "trees.csv"
    frame = TREES.assign(DBH=[f"{d:g}" for d in TREES["DBH"]], latitude=LAT, longitude=LON).iloc[:4]
    frame.loc[3, ["latitude", "longitude"]] = None  # tree 104 was not located
    frame.to_csv(csv, index=False)
    out = tmp_path / "trees.gpkg"
    before = _assess_json(capsys, str(csv), "--violation", "--out", str(out))
    import pyogrio

    assert [list(x) for x in pyogrio.list_layers(out)] == [["trees", "Point"], ["summary", None]]
    layer = pyogrio.read_dataframe(out, layer="trees")
    assert list(layer["tag"]) == ["101", "102", "103", "104"]  # every tree, 104 without a point
    assert layer.geometry.isna().tolist() == [False, False, False, True]
    for i in (0, 1, 2):
        assert abs(layer.geometry.iloc[i].x - LON[i]) < 1e-7 and abs(layer.geometry.iloc[i].y - LAT[i]) < 1e-7
    by_tag = {r["tag"]: r for r in before["per_tree"]}
    assert by_tag, "no trees assessed"
    for _, r in layer.iterrows():
        want = by_tag[r["tag"]]
        for f in ("species_code", "action", "value_usd", "counted", "offence_status", "penalty_tier"):
            assert r[f] == want[f], (r["tag"], f)
        assert r["penalty_max_usd"] == pytest.approx(want["penalty_max_usd"])
        assert r["zone"] == "NoEastXXX"
    facts = pyogrio.read_dataframe(out, layer="summary").set_index("name")["value"].map(json.loads)
    assert facts["trees_without_coordinates"] == 1
    assert facts["fingerprint"]["survey"]["file"] == "trees.csv"
    assert facts["civil_penalty_max_usd"] == before["civil_penalty_max_usd"]
    # read back as a survey (the one layer of points is taken without --layer) and assessed again
    again = _assess_json(capsys, str(out), "--violation")
    for d in (before, again):
        d.pop("fingerprint")
        d["options"].get("read", {}).pop("layer", None)
    said = [w for w in again["warnings"] if w.startswith("columns not read")]
    assert len(said) == 1 and "'value_usd'" in said[0]  # the assessment's own columns are not inputs
    again["warnings"].remove(said[0])
    _same(again, before)


@pytest.mark.parametrize("suffix", [".geojson", ".fgb"])
def test_geojson_and_flatgeobuf_get_the_summary_beside_them(tmp_path, capsys, suffix):
    out = tmp_path / f"trees{suffix}"
    assert main(["assess", str(_csv(tmp_path)), "--out", str(out)]) == 0
    assert f"the summary to {tmp_path / 'trees.summary.json'}" in capsys.readouterr().out
    layer = gpd.read_file(out, engine="pyogrio")
    assert list(layer["tag"]) == ["101", "102", "103", "104"] and layer.crs.equals(4326)
    assert max(abs(layer.geometry.x - LON[:4]).max(), abs(layer.geometry.y - LAT[:4]).max()) < 1e-7
    summary = json.loads((tmp_path / "trees.summary.json").read_text())
    assert summary["trees"] == 4 and summary["rejected"] == 1 and summary["trees_without_coordinates"] == 0
    assert summary["fingerprint"]["survey"]["file"] == "trees.csv"
    # the row rejected is no tree (not in the layer): the summary says it, with its reason
    assert [(r["tag"], r["source_row"]) for r in summary["rejected_rows"]] == [("105", 6)]
    assert "Zzyzx tree" in summary["rejected_rows"][0]["reason"]


def test_out_of_another_kind_is_refused_naming_the_kinds(tmp_path, capsys):
    assert main(["assess", str(_csv(tmp_path)), "--out", str(tmp_path / "t.shp")]) == 2
    assert "a GIS layer (.gpkg, .geojson, .fgb)" in capsys.readouterr().err


def test_verify_reads_the_same_layer_the_statement_was_made_from(tmp_path, capsys):
    p = _write(tmp_path, "gpkg")  # two layers: verify must read 'trees' again, as the statement records
    out = tmp_path / "statement.xlsx"
    assert main(["assess", str(p), "--layer", "trees", "--out", str(out)]) == 0
    capsys.readouterr()
    assert main(["verify", str(out), str(p)]) == 0, capsys.readouterr().err


def test_a_geojson_without_a_layer_name_is_read_under_the_files_name(tmp_path):
    # ArcGIS and hand-written GeoJSON carry no "name": GDAL names the layer after the in-memory copy it reads,
    # a new name each time it is opened; the layer is read by its place in the file and named by the file
    features = [
        {
            "type": "Feature",
            "geometry": {"type": "Point", "coordinates": [x, y]},
            "properties": {"Tag": t, "Species": s, "DBH": d, "Action": a},
        }
        for x, y, t, s, d, a in zip(LON, LAT, TREES["Tag"], TREES["Species"], TREES["DBH"], TREES["Action"])
    ]
    p = tmp_path / "inventory.geojson"
    p.write_text(json.dumps({"type": "FeatureCollection", "features": features}))
    s = read_survey(p)
    assert s.source["sheet"] == "inventory" and len(s.trees) == 4 and len(s.rejected) == 1
    assert abs(s.trees["latitude"].iloc[0] - LAT[0]) < 1e-7


def test_a_layer_without_a_header_is_called_a_layer_not_a_sheet(tmp_path):
    # a layer's attribute table has no sheets: the message names the layer, as the user's GIS shows it
    g = gpd.GeoDataFrame({"Note": ["a", "b"]}, geometry=[Point(LON[0], LAT[0]), Point(LON[1], LAT[1])], crs=4326)
    p = tmp_path / "points.gpkg"
    g.to_file(p, layer="Tree Points", engine="pyogrio")
    with pytest.raises(SurveyError) as e:
        read_survey(p)
    assert "of layer 'Tree Points'" in str(e.value) and "sheet" not in str(e.value)


def _zip_in_folders(tmp_path: Path, folders: list[str]) -> Path:
    """A zipped Shapefile whose parts sit in a folder inside the zip (Windows' "Send to > Compressed folder" on a
    folder makes it), one Shapefile per folder."""
    src = tmp_path / "shp"
    src.mkdir()
    _layer(2263).to_file(src / "trees.shp", engine="pyogrio")
    p = tmp_path / "survey123.zip"
    with zipfile.ZipFile(p, "w", zipfile.ZIP_DEFLATED) as zf:
        for folder in folders:
            for part in sorted(src.iterdir()):
                zf.write(part, f"{folder}/{folder.rsplit('/', 1)[-1]}{part.suffix}")
    return p


def test_a_zipped_shapefile_in_a_folder_is_read(tmp_path, capsys):
    p = _zip_in_folders(tmp_path, ["Tree_Survey_0"])
    s = read_survey(p)
    assert len(s.trees) == 4 and abs(s.trees["latitude"].iloc[0] - LAT[0]) < 1e-7
    assert s.source["sheet"] == "Tree_Survey_0"


def test_a_zip_of_several_shapefiles_is_refused_naming_them_unless_one_is_chosen(tmp_path, capsys):
    p = _zip_in_folders(tmp_path, ["a/Trees_2024", "b/Trees_2025"])
    assert main(["assess", str(p)]) == 2
    err = capsys.readouterr().err
    assert "a/Trees_2024/Trees_2024.shp" in err and "b/Trees_2025/Trees_2025.shp" in err and "--layer" in err
    assert "vsizip" not in err and "pyogrio_" not in err
    assert len(read_survey(p, layer="Trees_2025").trees) == 4


def test_a_damaged_zipped_shapefile_names_the_file_not_gdals_copy(tmp_path, capsys):
    p = tmp_path / "broken.zip"
    with zipfile.ZipFile(p, "w") as zf:
        zf.writestr("x/broken.shp", b"not a shapefile" * 10)
        zf.writestr("x/broken.shx", b"nope")
        zf.writestr("x/broken.dbf", b"nope")
    assert main(["assess", str(p)]) == 2
    err = capsys.readouterr().err
    assert "broken.zip" in err and "vsizip" not in err and "pyogrio_" not in err


@pytest.mark.parametrize("suffix", [".gpkg", ".geojson"])
def test_a_projected_layer_is_written_back_in_its_own_crs_and_says_which_rows_are_left_out(tmp_path, capsys, suffix):
    # a zipped Shapefile in EPSG:2263 (US feet): the assessed layer lies over it in QGIS, each point where it was
    src = _write(tmp_path, "shp")
    out = tmp_path / f"assessed{suffix}"
    assert main(["assess", str(src), "--out", str(out)]) == 0, capsys.readouterr().err
    import pyogrio

    want = _layer(2263).set_index("Tag")
    got = pyogrio.read_dataframe(out, layer="trees")
    assert got.crs.equals(2263)
    assert list(got["tag"]) == ["101", "102", "103", "104"]
    for _, r in got.iterrows():  # 4326 and back moves a point by far less than a thousandth of a foot
        p = want.geometry[r["tag"]]
        assert abs(r.geometry.x - p.x) < 1e-3 and abs(r.geometry.y - p.y) < 1e-3, r["tag"]
    # tree 105 (an unknown species) is no tree of the layer: the layer's description and the summary say so
    said = "1 row of the survey is not in this layer: tag 105, row 6, column 'Species': "
    assert said in pyogrio.read_info(out, layer="trees")["layer_metadata"]["DESCRIPTION"]
    if suffix == ".gpkg":
        summary = pyogrio.read_dataframe(out, layer="summary").set_index("name")["value"].map(json.loads)
    else:
        summary = json.loads(sidecar(out).read_text())
    assert summary["rows_left_out"].startswith(said) and "Zzyzx tree" in summary["rows_left_out"]


def test_a_flag_is_written_as_true_false_or_null_not_as_text(tmp_path, capsys):
    # a Hazardous column of yes / blank / no: GeoJSON's properties are true / null / false (what QGIS filters and
    # styles on), never the strings "True", "<NA>" and "False"
    src = tmp_path / "flags.csv"
    src.write_text(
        "Tag,Species,DBH (in),Action,Hazardous,Latitude,Longitude\n"
        "1,Acer rubrum,14,Remove,yes,41.2,-73.9\n2,Quercus palustris,30,Remove,,41.2,-73.9\n"
        "3,Quercus palustris,10,Retain,no,41.2,-73.9\n"
    )
    out = tmp_path / "trees.geojson"
    assert main(["assess", str(src), "--out", str(out)]) == 0
    capsys.readouterr()
    got = [f["properties"]["hazardous"] for f in json.loads(out.read_text())["features"]]
    assert got == [True, None, False]
    # and read back, the layer's flags are the survey's
    assert read_survey(out).trees["hazardous"].tolist() == [True, pd.NA, False]


@pytest.mark.parametrize("suffix", [".gpkg", ".geojson"])
def test_a_written_layer_keeps_the_permit_facts_and_an_unclear_cell(tmp_path, capsys, suffix):
    # tree 1 removed under its own permit (a permit number), tree 2 removed by the Village, tree 3 topped with its
    # good-forestry cell "maybe" (no determination: §208-22F conditional on it) and its hazardous cell "?": read
    # back, the layer is the same survey. Without the permit and village-work columns it read back as two
    # definite offences with their penalties; "maybe" written as false read back as a given "no"
    src = tmp_path / "facts.csv"
    src.write_text(
        "Tag,Species,DBH (in),Action,Permit,Village work,Good forestry,Hazardous,Notes,Latitude,Longitude\n"
        "1,Acer rubrum,14,removed,P-2026-17,,no,no,,41.2001,-73.9001\n"
        "2,Quercus palustris,30,removed,,yes,no,no,,41.2002,-73.9002\n"
        "3,Quercus rubra,18,topped,,,maybe,?,by the drive,41.2003,-73.9003\n"
        "4,Acer saccharum,9,retain,,,,,,41.2004,-73.9004\n"
    )
    out = tmp_path / f"facts{suffix}"
    before = _assess_json(capsys, str(src), "--out", str(out))
    assert before["offences_definite"] == 1 and before["offences_conditional"] == 0  # tree 3 topped: §208-18D
    again = _assess_json(capsys, str(out))
    for d in (before, again):
        d.pop("fingerprint")
        d["options"].get("read", {}).pop("layer", None)
    said = [w for w in again["warnings"] if w.startswith("columns not read")]
    assert len(said) == 1
    again["warnings"].remove(said[0])
    _same(again, before)
