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
