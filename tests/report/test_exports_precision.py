"""Exports and CSV downloads write measured quantities at their schema precision (``treecalc/columns.csv``):
DBH to 0.1 in, areas to 0.01 sq ft, distances to 0.1 ft, dollars to the cent, each benefit quantity at its
own format; the values the computation uses stay unrounded.

The survey: a consulting arborist's small street inventory, one multi-stem tree, one measured in cm.
"""

import io
import math

import numpy as np
import pandas as pd
import pytest

from treecalc.ingest import read_survey
from treecalc.models.benefits import compute_benefits
from treecalc.report.exports import at_precision, export_frame

SURVEY = (
    "Tag,Species,DBH,DBH unit,Action,Condition,Distance to house (ft),Latitude,Longitude\n"
    'S1,Acer rubrum,"6, 5.3",in,Remove,Good,12.345,41.20101,-73.89012\n'
    "S2,Quercus rubra,20.32,cm,Retain,Dead,30,41.20112,-73.89023\n"
    "S3,Tilia americana,13.25,in,Retain,Fair,7.25,41.20123,-73.89034\n"
    "S4,Acer saccharum,16.04,in,Remove,Good,,41.20134,-73.89045\n"
    "S5,Acer rubrum,10,in,Remove,Good,40,41.20145,-73.89056\n"
    "S6,Quercus palustris,12,in,Remove,Good,45,41.20156,-73.89067\n"
)
# By hand:
#   S1: two stems, sqrt(6^2 + 5.3^2) = sqrt(36 + 28.09) = sqrt(64.09) = 8.00562... in -> 8.0 at 0.1 in
#   S2: 20.32 cm / 2.54 = 8.0 in (read as 7.999999999999999 in binary)  -> 8.0
#   S3: 13.25 in, a tie at 0.1 in, half up (as Excel shows 0.0)          -> 13.3
#   S4: 16.04 in                                                         -> 16.0
#   S5, S6: 10 and 12 in, as written
DBH_WRITTEN = [8.0, 8.0, 13.3, 16.0, 10.0, 12.0]
DBH_READ = [math.sqrt(64.09), 20.32 / 2.54, 13.25, 16.04, 10.0, 12.0]


@pytest.fixture(scope="module")
def survey():
    return read_survey(io.BytesIO(SURVEY.encode()), filename="street.csv")


def _decimals(values) -> int:
    """The most decimals any written value carries."""
    return max(len(t.split(".")[1]) if "." in t else 0 for t in map(str, values) if t not in ("", "nan", "<NA>"))


def test_the_survey_holds_the_unrounded_diameters(survey):
    assert survey.trees["dbh_in"].tolist() == pytest.approx(DBH_READ, abs=1e-12)
    assert survey.trees["dbh_in"].iloc[0] != 8.0  # the reading is not rounded, only what is written


def test_every_export_format_writes_dbh_to_a_tenth_of_an_inch(survey):
    eco = export_frame(survey.trees, "itree-eco", survey.site)
    otm = export_frame(survey.trees, "opentreemap", survey.site)
    ben = export_frame(survey.trees, "benefits", survey.site)
    assert eco["DBH (in)"].tolist() == DBH_WRITTEN
    assert otm["diameter"].tolist() == DBH_WRITTEN
    assert ben["dbh_in"].tolist() == DBH_WRITTEN
    # coordinates are as given, never rounded to a measured quantity's precision
    assert eco["Latitude"].tolist() == [41.20101, 41.20112, 41.20123, 41.20134, 41.20145, 41.20156]
    assert otm["point x"].tolist() == [-73.89012, -73.89023, -73.89034, -73.89045, -73.89056, -73.89067]


def test_the_benefits_export_writes_each_quantity_at_its_format_from_unrounded_inputs(survey):
    ben = export_frame(survey.trees, "benefits", survey.site)
    # valued at the diameters as read (8.0056 in), not at the 8.0 in written: the export's figure is the
    # unrounded computation's, rounded once
    exact = compute_benefits(survey.trees[["species_code", "dbh_in", "land_use", "condition"]])
    at_8 = compute_benefits(pd.DataFrame({"species_code": ["ACRU"], "dbh_in": [8.0], "land_use": ["unspecified"]}))
    # columns.csv: stormwater_gal NUM0, electricity_kwh NUM1, natural_gas_therms NUM2, air_quality_lb NUM2,
    # co2_* NUM1, leaf_area_increase_m2 NUM2, leaf_area_m2 NUM1, crown_area_m2 NUM1, usd_* USD (cents)
    places = {
        "stormwater_gal": 0,
        "electricity_kwh": 1,
        "natural_gas_therms": 2,
        "air_quality_lb": 2,
        "co2_sequestered_lb": 1,
        "co2_avoided_lb": 1,
        "co2_stored_lb": 1,
        "leaf_area_increase_m2": 2,
        "leaf_area_m2": 1,
        "crown_area_m2": 1,
        "usd_stormwater": 2,
        "usd_total_annual": 2,
    }
    text = ben.to_csv(index=False)
    back = pd.read_csv(io.StringIO(text))
    for col, d in places.items():
        assert _decimals(back[col]) <= d, (col, back[col].tolist())
        # within half a unit of the last place of the unrounded figure
        assert back[col].tolist() == pytest.approx(exact[col].tolist(), abs=0.5 * 10**-d + 1e-9), col
    assert back["stormwater_gal"].dtype.kind == "i"  # whole gallons written as whole numbers: 823, not 823.0
    s1 = back["usd_total_annual"].iloc[0]
    assert s1 == pytest.approx(exact["usd_total_annual"].iloc[0], abs=0.005)
    assert abs(at_8["usd_total_annual"].iloc[0] - exact["usd_total_annual"].iloc[0]) > 0.01  # they do differ
    assert s1 != round(at_8["usd_total_annual"].iloc[0], 2)


def test_the_cli_export_writes_the_tenth(tmp_path, capsys):
    from treecalc.cli import main

    f = tmp_path / "street.csv"
    f.write_text(SURVEY)
    assert main(["survey", str(f), "--export", "itree-eco"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Tree ID,Species,DBH (in),Latitude,Longitude,Percent Dieback"
    assert [line.split(",")[2] for line in lines[1:]] == ["8.0", "8.0", "13.3", "16.0", "10.0", "12.0"]


def test_half_up_at_each_format_and_blanks_stay_blank():
    df = pd.DataFrame(
        {
            "dbh_in": [8.05, 8.04999, np.nan, 0.25],  # 8.05 is 8.0499999... in binary: half up on its decimal
            "area_sqft_per_tree": [314.159265, 78.539816, 0.005, np.nan],  # pi 10^2, pi 5^2 ft²
            "value_usd": [1.005, 2.675, 0.0, 1e6 / 3],
            "notes": ["a", "b", "c", "d"],
            "latitude": [41.123456789, 0.0, 1.0, 2.0],
        }
    )
    out = at_precision(df)
    assert out["dbh_in"].tolist()[:2] == [8.1, 8.0] and np.isnan(out["dbh_in"].iloc[2]) and out["dbh_in"].iloc[3] == 0.3
    assert out["area_sqft_per_tree"].tolist()[:3] == [314.16, 78.54, 0.01]
    assert out["value_usd"].tolist() == [1.01, 2.68, 0.0, 333333.33]
    assert out["latitude"].iloc[0] == 41.123456789 and out["notes"].tolist() == ["a", "b", "c", "d"]
    assert df["dbh_in"].iloc[0] == 8.05  # the frame given is not changed


def test_the_app_csv_downloads_write_at_precision(survey):
    """Every CSV download goes through ``ui.csv_bytes`` (``ui.downloads``); the tables are labelled for
    people ("DBH (in)"), and each label keeps the precision of the column it names."""
    from treecalc.app import ui, views
    from treecalc.assessment import assess

    a = assess(
        survey,
        site={"subdividable": False, "has_residence": True, "site_plan_required": False},
        plantable=1,
    )
    assessed = pd.read_csv(io.BytesIO(ui.csv_bytes(views.labelled(a.trees, a))))
    assert assessed["DBH (in)"].tolist() == DBH_WRITTEN
    dist = [c for c in assessed.columns if "residence" in c.lower()]
    assert dist and assessed[dist[0]].tolist()[:3] == [12.3, 30.0, 7.3]  # 12.345, 30, 7.25 ft to 0.1 ft, half up
    value = [c for c in assessed.columns if c.startswith("Value (USD")]
    assert value and _decimals(assessed[value[0]]) <= 2
    # the Survey page's "Survey trees" and the Benefits page's per-tree table: the same labels, the same tenth
    shown = pd.read_csv(io.BytesIO(ui.csv_bytes(views.labelled(survey.trees))))
    assert shown["DBH (in)"].tolist() == DBH_WRITTEN
    ben = compute_benefits(survey.trees[["species_code", "dbh_in", "land_use"]])
    per_tree = pd.read_csv(io.BytesIO(ui.csv_bytes(views.labelled(ben))))
    assert per_tree["DBH (in)"].tolist() == DBH_WRITTEN
    assert _decimals(per_tree[views.label("stormwater_gal")]) == 0
    # the Permit page's planting plan: the §208-6A area per tree to 0.01 sq ft
    plan = views.frame(a.replacement.plan)
    assert len(plan) and "area_sqft_per_tree" in plan
    written = pd.read_csv(io.BytesIO(ui.csv_bytes(views.labelled(plan, a))))
    area = written[views.label("area_sqft_per_tree")]
    assert _decimals(area) <= 2
    assert area.tolist() == pytest.approx(plan["area_sqft_per_tree"].astype(float).tolist(), abs=0.005)
    # a table not labelled from the schema (an excavation's grid, in ft to 0.01) is written as computed
    grid = pd.read_csv(io.BytesIO(ui.csv_bytes(pd.DataFrame({"elevation_ft": [101.37, 99.04]}))))
    assert grid["elevation_ft"].tolist() == [101.37, 99.04]
    # a labelled table still goes to Arrow (as st.dataframe draws it) with a year for a column name
    import warnings

    import pyarrow as pa

    years = views.labelled(pd.DataFrame({np.int64(2026): [1.25], "dbh_in": [8.0056]}))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a frame's attrs Arrow cannot write as JSON are warned of, then dropped
        assert pa.Table.from_pandas(years).num_rows == 1
    assert ui.csv_bytes(years).decode("utf-8-sig").splitlines()[1] == "1.25,8.0"
    # the assessment itself is not rounded
    assert a.trees["dbh_in"].iloc[0] == pytest.approx(math.sqrt(64.09), abs=1e-12)


def test_the_benefits_export_gives_a_dead_tree_no_benefits(survey):
    # S2's condition is Dead: no leaf area, so i-Tree Streets gives it nothing (the assessment values it $0);
    # the export read only species, DBH and land use and valued it as a living 8 in oak
    ben = export_frame(survey.trees, "benefits", survey.site)
    s2 = ben.iloc[1]
    assert s2["tag"] == "S2" and bool(s2["dead"]) is True
    assert s2["stormwater_gal"] == 0 and s2["usd_total_annual"] == 0.0
    assert not ben["dead"].iloc[[0, 2, 3, 4, 5]].any() and (ben["usd_total_annual"].iloc[[0, 2, 3, 4, 5]] > 0).all()
