"""The tree map: coordinates to WGS84 (treecalc.reference.geo), the points and colours (treecalc.app.map), the Map page."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]

from treecalc.app import map as tree_map  # noqa: E402
from treecalc.reference.geo import local_metres, to_wgs84, tree_lonlat  # noqa: E402


def _trees(**cols) -> pd.DataFrame:
    base = {
        "tag": ["1", "2", "3"],
        "species": ["Red maple"] * 3,
        "species_code": ["ACRU"] * 3,
        "dbh_in": [10.0, 12.5, np.nan],
        "action": ["remove", "retain", "removed"],
        "offence": [False, False, True],
        "penalty_tier": [None, None, "§208-29B(2)"],
        "value_usd": [10.5, 20.0, np.nan],
    }
    base.update(cols)
    return pd.DataFrame(base)


def test_epsg2263_feet_become_metres_on_the_ground():
    # EPSG:2263 (NY Long Island, US survey ft): 100 ft east = 100 x 1200/3937 = 30.48 m east; the
    # equirectangular drawing on the mean radius is ~0.26 % short at 40.85° N (ellipsoid), so 0.5 % tolerance
    lon, lat = to_wgs84([1_000_000, 1_000_100], [250_000, 250_000], "EPSG:2263")
    assert 40.4 < lat[0] < 41.0 and -74.3 < lon[0] < -73.6  # in New York City
    east, north = local_metres(lon, lat)
    assert east[1] - east[0] == pytest.approx(30.48, rel=0.005)
    assert abs(north[1] - north[0]) < 0.05


def test_latitude_longitude_used_as_given_and_bad_ones_dropped():
    t = _trees(latitude=[41.2, 91.0, "n/a"], longitude=[-73.9, -73.9, -73.9])
    ll = tree_lonlat(t)
    assert ll["latitude_deg"].iloc[0] == 41.2 and ll["longitude_deg"].iloc[0] == -73.9
    assert ll["latitude_deg"].isna().tolist() == [False, True, True]  # 91° N and text: not placed
    df, missing = tree_map.points(t, None)
    assert len(df) == 1 and missing == 2


def test_no_coordinates_is_no_map_and_xy_without_crs_is_a_clear_error():
    assert tree_lonlat(_trees()) is None
    assert tree_map.points(_trees(), None)[0].empty
    with pytest.raises(ValueError, match="no site fact crs"):
        tree_lonlat(_trees(x=[1, 2, 3], y=[1, 2, 3]), {})
    with pytest.raises(ValueError, match="EPSG:99999"):
        tree_lonlat(_trees(x=[1, 2, 3], y=[1, 2, 3]), {"crs": "EPSG:99999"})


def test_points_colour_hover_and_deck_without_basemap():
    t = _trees(latitude=[41.2, 41.2001, 41.2002], longitude=[-73.9, -73.9001, -73.9002])
    df, _ = tree_map.points(t, None, "offence")
    assert df["category"].tolist() == ["no offence", "no offence", "offence"]
    assert df["color"].iloc[0] == list(tree_map.NONE_COLOUR) and df["color"].iloc[2] != list(tree_map.NONE_COLOUR)
    assert df[["tag", "species", "dbh", "value"]].iloc[0].tolist() == ["1", "Red maple (ACRU)", "10 in", "$10.50"]
    assert df["dbh"].iloc[2] == "—"
    # on the annual value basis the hover says the value is per year
    per_year, _ = tree_map.points(t, None, "offence", "/yr")
    assert per_year["value"].iloc[0] == "$10.50/yr"
    tiers, _ = tree_map.points(t, None, "penalty_tier")
    assert tiers["category"].tolist() == ["none", "none", "§208-29B(2)"]
    assert tiers["color"].iloc[2] == list(tree_map.PALETTE[0])
    spec = tree_map.deck(df, "Offence").to_json()
    assert "mapStyle" not in spec and "mapProvider" not in spec  # nothing to fetch
    assert "OrthographicView" in spec and "ScatterplotLayer" in spec
    leg = tree_map.legend(df)
    assert dict(zip(leg["category"], leg["trees"])) == {"no offence": 2, "offence": 1}


def test_coordinates_stay_in_the_statements_trees_sheet():
    import openpyxl

    from treecalc.assessment import assess
    from treecalc.ingest import read_survey
    from treecalc.report.statement import statement_bytes

    sv = read_survey(
        io.BytesIO(b"Tag,Species,DBH (in),Action\n1,Red maple,12,remove\n2,Red maple,10,retain\n"), filename="s.csv"
    )
    sv.trees["latitude"] = [41.2, 41.2001]
    sv.trees["longitude"] = [-73.9, -73.9001]
    wb = openpyxl.load_workbook(io.BytesIO(statement_bytes(assess(sv))), read_only=True)
    rows = list(wb["Trees"].iter_rows(values_only=True))
    head = [str(h).lower() for h in rows[1]]
    lat = next(i for i, h in enumerate(head) if "latitude" in h)
    lon = next(i for i, h in enumerate(head) if "longitude" in h)
    assert [r[lat] for r in rows[2:]] == [41.2, 41.2001] and [r[lon] for r in rows[2:]] == [-73.9, -73.9001]


# --- the Map page (AppTest) -------------------------------------------------------


def _survey_with_xy() -> bytes:
    return (
        b"Tag,Species,DBH (in),Action,X,Y\n"
        b"1,Red maple,12,removed,1000000,250000\n2,Red maple,12,removed,1000050,250000\n"
        b"3,Red maple,12,removed,1000100,250000\n4,Red maple,12,removed,1000100,250060\n"
        b"5,Pin oak,20,retain,1000000,250080\n"
    )


@pytest.fixture
def coords_reader(monkeypatch):
    import treecalc.ingest as ingest
    from tests.app.coords import coords_reader as cr

    monkeypatch.setattr(ingest, "read_survey", ingest.read_survey)  # restored after the test
    cr.install()


def test_map_page_places_projected_trees(coords_reader):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.file_uploader(key="w_upload").set_value(("lot 7 xy.csv", _survey_with_xy(), "text/csv")).run()
    at.session_state["tc_read_opts"] = {"site": {"crs": "EPSG:2263"}}
    at.switch_page("treecalc/app/pages/map.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error and not at.warning, [w.value for w in at.warning]
    assert any("5 trees placed" in c.value for c in at.caption)
    charts = at.get("deck_gl_json_chart")
    assert len(charts) == 1
    spec = charts[0].proto.json
    assert '"tag": "4"' in spec and "mapStyle" not in spec
    at.radio(key="w_map_colour").set_value("Offence (§208-29)").run()
    assert not at.exception
    legend = " ".join(m.value for m in at.markdown)
    # 4 removals without a permit, each resting on facts given (issue 9: definite), 1 kept
    assert "offence on the facts given (4)" in legend and "no offence (1)" in legend  # the legend in words


def test_map_page_without_coordinates_says_how_to_add_them():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.switch_page("treecalc/app/pages/map.py").run()
    assert not at.exception
    assert any("no tree coordinates" in i.value for i in at.info)


def test_trees_the_law_speaks_of_are_drawn_over_the_others():
    # pydeck draws the rows in order: on a dense 2,000-tree survey the grey "none" trees listed after an
    # offence covered it (most of the 128 tier-(3) trees were hidden). Grey first, coloured on top.
    t = _trees(latitude=[41.2, 41.2001, 41.2002], longitude=[-73.9, -73.9001, -73.9002])
    t = t.iloc[::-1].reset_index(drop=True)  # the offence (tag 3) first in the survey
    df, _ = tree_map.points(t, None, "offence")
    assert df["category"].tolist() == ["no offence", "no offence", "offence"]
    assert df["tag"].tolist() == ["2", "1", "3"]  # the survey's order kept within each group


def test_value_columns_say_per_year_on_the_annual_basis():
    from types import SimpleNamespace

    from treecalc.app import views

    # the assessment's options read as an attribute (a.options), as Assessment holds them
    df = pd.DataFrame({"tag": ["1"], "value_usd": [10.5], "required_value_usd": [12.6], "cost_usd": [300.0]})
    annual = views.labelled(df, SimpleNamespace(options={"value_basis": "annual"}))
    assert list(annual.columns) == ["Tag", "Value (USD/yr)", "Required value (USD/yr)", "Cost (USD)"]
    # a capital basis (appraised, cumulative:N) is a sum of dollars, and a cost is never per year
    capital = views.labelled(df, SimpleNamespace(options={"value_basis": "appraised"}))
    assert list(capital.columns) == ["Tag", "Value (USD)", "Required value (USD)", "Cost (USD)"]
    assert list(views.labelled(df).columns) == list(capital.columns)


def test_a_tier_keeps_its_colour_whatever_else_the_survey_holds():
    # §208-29B(2) is PALETTE[0] on a map of one tier and on a map where (3) outnumbers it; an unknown
    # category takes a colour no known one present uses
    alone = tree_map.colour_table(pd.Series(["§208-29B(2)", "none"]))
    crowded = tree_map.colour_table(pd.Series(["§208-29B(3)"] * 5 + ["§208-29B(2)", "§95-9 fine", "none"]))
    assert alone["§208-29B(2)"] == crowded["§208-29B(2)"] == tree_map.PALETTE[0]
    assert crowded["§208-29B(3)"] == tree_map.PALETTE[2] and alone["none"] == tree_map.NONE_COLOUR
    assert crowded["§95-9 fine"] not in (tree_map.PALETTE[0], tree_map.PALETTE[2], tree_map.NONE_COLOUR)


def test_a_unit_suffix_is_read_only_at_the_end_of_a_name():
    # fund.csv showed "Fund (in) lieu (USD)" and "Trees (in) lieu": "_in" was read as inches mid-name
    from treecalc.app.views import label

    # (names columns.csv does not label: a labelled one reads its label, see test_display_money_and_tables.py)
    assert label("bond_in_lieu_usd") == "Bond in lieu (USD)"
    assert label("plants_in_lieu") == "Plants in lieu"
    assert label("height_ft") == "Height (ft)" and label("area_sqft") == "Area (sq ft)"


def test_a_dead_tree_is_marked_on_the_map_and_in_its_table():
    t = _trees(latitude=[41.2, 41.2001, 41.2002], longitude=[-73.9, -73.9001, -73.9002], dead=[False, True, False])
    t.loc[1, "value_usd"] = 0.0
    df, _ = tree_map.points(t, None)
    by_tag = df.set_index("tag")
    assert by_tag.loc["2", "dead"] and not by_tag.loc["1", "dead"]
    assert by_tag.loc["2", "value"] == "$0.00 (dead: no environmental value)"
    assert by_tag.loc["1", "value"] == "$10.50"
    # a frame from before the dead column (or another tool) is read as no tree dead
    assert not tree_map.points(t.drop(columns="dead"), None)[0]["dead"].any()


def test_dot_size_follows_dbh_on_a_wide_survey():
    # a 1.2 km GIS export: at 0.25 m per inch (clipped 1.5-8 m) every dot came out under the 5 px floor at the
    # first view (500 px across 1.2 x 1,200 m: 0.35 px/m, so 2-8 m drew 0.7-2.8 px, all shown as 5 px)
    t = pd.DataFrame(
        {
            "tag": ["A1", "A2", "A3", "A4"],
            "species": ["Red maple"] * 4,
            "dbh_in": [8.0, 20.0, 37.0, np.nan],
            "latitude": [41.2000, 41.2054, 41.2108, 41.2027],  # 0.0108° of latitude: ~1,200 m
            "longitude": [-73.8900] * 4,
        }
    )
    df, _ = tree_map.points(t, None)
    deck = tree_map.deck(df)
    px_per_m = 2**deck.initial_view_state.zoom  # the orthographic view: 1 m is 2^zoom px
    px = dict(zip(df["tag"], df["radius_m"] * px_per_m))
    # radius in proportion to DBH, DBH/2.5 px between 3 and 16 px: 8 in -> 3.2 px, 20 in -> 8 px, 37 in -> 14.8 px
    assert px["A1"] == pytest.approx(3.2, rel=1e-6)
    assert px["A2"] == pytest.approx(8.0, rel=1e-6)
    assert px["A3"] == pytest.approx(14.8, rel=1e-6)
    assert px["A4"] == pytest.approx(3.0, rel=1e-6)  # DBH not given: the smallest dot
    layer = deck.layers[0]
    assert layer.radius_min_pixels <= 3  # no floor that makes the small trees the same as the big ones
    assert "DBH" in tree_map.SIZE_WORDS and "16 px" in tree_map.SIZE_WORDS and "3 px" in tree_map.SIZE_WORDS


#: The map's width on a 390 px phone: 390 px less the page's 16 px padding each side (measured in Chromium by
#: tests/app/test_browser_next_step.py)
PHONE_MAP_PX = 358


def _on_screen(deck, df, width: float, height: float = 520) -> dict[str, tuple[float, float]]:
    """Where each tree's dot and the scale label fall in a map ``width`` x ``height`` px at the first view (the
    orthographic view: x = (east - target) * 2^zoom + width / 2, y up from the middle)."""
    view = deck.initial_view_state
    k = 2**view.zoom
    tx, ty = view.target[0], view.target[1]
    out = {
        t: ((e - tx) * k + width / 2, height / 2 - (n - ty) * k)
        for t, e, n in zip(df["tag"], df["east_m"], df["north_m"])
    }
    (label,) = [ly for ly in deck.layers if ly.id == "scale_text"]
    x, y = label.data[0]["position"]
    text = label.data[0]["text"]
    # the label starts at its point and runs right: 13 px type, at most 0.65 em a character
    out["scale label end"] = ((x - tx) * k + width / 2 + len(text) * 13 * 0.65, height / 2 - (y - ty) * k)
    out["scale label start"] = ((x - tx) * k + width / 2, height / 2 - (y - ty) * k)
    return out


def test_the_first_view_fits_a_phone_with_its_scale_label_and_tags_label_few_trees():
    # a lot whose trees lean east of their mean: three trees in the west corner, one 60 m east. About their mean
    # (15 m east of the corner) 500 px across 1.2 x 60 m put the west trees 15 m x 6.9 px/m = 104 px left of the
    # middle and the east one 310 px right: off a 358 px phone's map on both sides
    t = pd.DataFrame(
        {
            "tag": ["W1", "W2", "W3", "E1"],
            "species": ["Red maple"] * 4,
            "dbh_in": [12.0, 14.0, 20.0, 30.0],
            "latitude": [41.2000, 41.20005, 41.2001, 41.2000],
            "longitude": [-73.9000, -73.90005, -73.9000, -73.89929],  # 0.00071° of longitude: ~60 m at 41.2° N
        }
    )
    df, _ = tree_map.points(t, None)
    deck = tree_map.deck(df)
    where = _on_screen(deck, df, PHONE_MAP_PX)
    assert len(where) == 6
    for name, (x, y) in where.items():
        assert 0 <= x <= PHONE_MAP_PX and 0 <= y <= 520, (name, x, y)
    tags = [ly for ly in deck.layers if ly.id == "tree_tags"]
    assert tags and [d["tag"] for d in tags[0].data] == ["W1", "W2", "W3", "E1"]  # four trees: each labelled


def test_a_survey_of_many_trees_is_not_labelled_on_the_map():
    n = tree_map.LABEL_MAX + 1
    t = pd.DataFrame(
        {
            "tag": [f"T{i}" for i in range(n)],
            "species": ["Red maple"] * n,
            "dbh_in": [10.0] * n,
            "latitude": [41.2 + i * 1e-5 for i in range(n)],
            "longitude": [-73.9] * n,
        }
    )
    df, _ = tree_map.points(t, None)
    assert not [ly for ly in tree_map.deck(df).layers if ly.id == "tree_tags"]  # their tags show on hover
