"""The app reads a GeoPackage upload as a survey, and its Map page downloads the trees as a GeoPackage and the
i-Tree Eco and OpenTreeMap imports (headless, Streamlit AppTest)."""

from __future__ import annotations

from pathlib import Path

import geopandas as gpd
from shapely.geometry import Point
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]


def _gpkg_bytes(tmp_path: Path) -> bytes:
    # three trees in Croton-on-Hudson, one removed; the layer in WGS84
    trees = gpd.GeoDataFrame(
        {"Tag": ["7", "8", "9"], "Species": ["Red maple", "Pin oak", "Red maple"], "DBH": [12.0, 20.0, 9.5]}
        | {"Action": ["remove", "retain", "retain"]},
        geometry=[Point(-73.8912, 41.2081), Point(-73.8911, 41.2082), Point(-73.8910, 41.2083)],
        crs=4326,
    )
    p = tmp_path / "lot 7.gpkg"
    trees.to_file(p, layer="trees", engine="pyogrio")
    return p.read_bytes()


def test_a_geopackage_upload_is_mapped_and_downloadable(tmp_path):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    upload = ("lot 7.gpkg", _gpkg_bytes(tmp_path), "application/geopackage+sqlite3")
    at.file_uploader(key="w_upload").set_value(upload).run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    at.switch_page("treecalc/app/pages/map.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("3 trees placed" in c.value for c in at.caption), [c.value for c in at.caption]
    labels = [b.proto.label for b in at.get("download_button")]
    assert "Trees as a GeoPackage" in labels
    assert "i-Tree Eco inventory (CSV)" in labels and "OpenTreeMap import (CSV)" in labels


def test_the_map_page_offers_the_downloads_without_coordinates_too():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()  # the sample: no coordinates
    at.switch_page("treecalc/app/pages/map.py").run()
    assert not at.exception
    assert any("no tree coordinates" in i.value for i in at.info)
    labels = [b.proto.label for b in at.get("download_button")]
    assert {"Trees as a GeoPackage", "i-Tree Eco inventory (CSV)", "OpenTreeMap import (CSV)"} <= set(labels)


def test_the_survey_page_accepts_gis_files():
    from treecalc.app import state

    assert {"gpkg", "zip", "geojson", "fgb", "kml"} <= set(state.SURVEY_TYPES)


def test_a_geopackage_of_two_layers_asks_which_holds_the_trees(tmp_path):
    trees = _gpkg_bytes(tmp_path)
    p = tmp_path / "lot 7.gpkg"  # the same file with a second layer of points (the lot's street lights)
    lights = gpd.GeoDataFrame({"Pole": ["L1"]}, geometry=[Point(-73.8915, 41.2080)], crs=4326)
    lights.to_file(p, layer="lights", engine="pyogrio")
    assert p.read_bytes() != trees
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.file_uploader(key="w_upload").set_value(("lot 7.gpkg", p.read_bytes(), "application/geopackage+sqlite3")).run()
    assert not at.exception, [e.value for e in at.exception]
    # not read until chosen: the error names both layers and the control, not the command line's flag
    said = " ".join(e.value for e in at.error)
    assert "'trees' (Point)" in said and "'lights' (Point)" in said and "the Layer under the upload" in said
    assert "--layer" not in said
    at.selectbox(key="w_layer").set_value("trees").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert [m.value for m in at.metric][:2] == ["3", "3"]  # rows read, trees
