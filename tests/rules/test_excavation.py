"""Excavation and filling: §120-3A thresholds, §120-8, §120-5E, §120-12, Wesley Hills Chapter 95,
and grid / end-area volumes."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal as D
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from treecalc.rules.excavation import (
    M3_PER_CU_YD,
    check_permit,
    end_area_volumes,
    grid_volumes,
    grid_volumes_from_frame,
    parse_station,
    review_standards,
    tree_survey_required,
    violation_penalties,
    volume_from_grid_csv,
    volume_from_sections_csv,
    wesley_hills_building_permit_check,
    wesley_hills_slope_check,
    wesley_hills_topsoil_cy,
    wesley_hills_waiver_eligible,
    work_time_allowed,
    work_time_check,
)


def trig(**kw):
    return check_permit(**kw).triggers


# --------------------------------------------------------------------------- §120-3A(1), (2)
@pytest.mark.parametrize(
    "area,depth,holds",
    [
        (100, 4, False),  # exactly 4 ft is not "in excess of four feet"
        (100, "4.01", True),  # deeper than 4 ft over exactly 100 sq ft ("100 square feet or more")
        ("99.99", 5, False),  # under 100 sq ft
        (150, 10, True),
    ],
)
def test_120_3A_1(area, depth, holds):
    assert ("§120-3A(1)" in trig(excavations=[(area, depth)])) is holds


@pytest.mark.parametrize(
    "area,depth,holds",
    [
        (500, 2, False),
        (500, "2.01", True),
        (499, 3, False),
        ("499.99", "2.5", False),
        (800, 3, True),
    ],
)
def test_120_3A_2(area, depth, holds):
    assert ("§120-3A(2)" in trig(excavations=[(area, depth)])) is holds


def test_areas_of_one_operation_add_up():
    # 60 + 60 = 120 sq ft deeper than 4 ft -> (1); a 3-ft piece does not count toward (1)
    assert "§120-3A(1)" in trig(excavations=[(60, 5), (60, 4.5)])
    assert "§120-3A(1)" not in trig(excavations=[(60, 5), (60, 3)])
    # (2) counts everything deeper than 2 ft, including the > 4 ft parts: 300 + 200 = 500
    assert "§120-3A(2)" in trig(excavations=[(300, 2.5), (200, 5)])


# --------------------------------------------------------------------------- §120-3A(3)
@pytest.mark.parametrize(
    "strip,lot,holds",
    [
        (4999, None, "unknown"),
        (5000, None, True),  # no lot area: under 5,000 depends on the lot
        (4999, 20000, False),
        (5000, 20000, True),  # half lot 10,000 > 5,000: 5,000 is less
        (4000, 8000, False),
        ("4000.01", 8000, True),  # half lot 4,000 < 5,000: "more than 50%"
        (3000, 8000, False),
        ("4999.99", 10000, False),
        (5000, 10000, True),  # equal thresholds
        (5000, 9000, True),  # half 4,500: well over
    ],
)
def test_120_3A_3_whichever_is_less(strip, lot, holds):
    # stripped 1 in deep: 5,000 x 1/12 = 416.67 cu ft, far under the 1,350 cu ft of (4)
    r = check_permit(strip_topsoil_sqft=strip, strip_topsoil_depth_in=1, lot_area_sqft=lot)
    assert ("§120-3A(3)" in r.triggers) is (holds is True)
    assert r.permit_required == holds


def test_strip_topsoil_without_lot_area_is_unknown_not_false():
    # 4,000 sq ft stripped, no lot area: (3) holds on lots where 4,000 > 50% of the lot, i.e. under
    # 8,000 sq ft; without the depth the volume of (4) is unknown too. Never "not required".
    r = check_permit(strip_topsoil_sqft=4000)
    assert r.permit_required == "unknown" and r.to_dict()["permit_required"] == "unknown"
    assert any("lot area" in m and "under 8,000 sq ft" in m for m in r.missing_facts)
    e3 = [e for e in r.explanations if e["section"] == "§120-3A(3)"][0]
    assert e3["holds"] is None and "8,000 sq ft" in e3["explanation"]
    # (4): stripping is excavation (§120-2): 1,350 cu ft / 4,000 sq ft = 0.3375 ft = 4.05 in is the limit
    assert any("4.05 in deep over 4,000 sq ft" in m for m in r.missing_facts)
    # With a 9,000 sq ft lot and 4 in: 4,000 <= 4,500 (half the lot); 4,000 x 4/12 = 1,333.33 cu ft
    # <= 1,350 -> not required.
    r = check_permit(strip_topsoil_sqft=4000, strip_topsoil_depth_in=4, lot_area_sqft=9000)
    assert r.permit_required is False and r.missing_facts == []
    # 5 in: 4,000 x 5/12 = 1,666.67 cu ft = 61.73 cu yd > 50 -> §120-3A(4)
    r = check_permit(strip_topsoil_sqft=4000, strip_topsoil_depth_in=5, lot_area_sqft=9000)
    assert r.triggers == ["§120-3A(4)"] and r.to_dict()["excavation_cy"] == 61.73


def test_120_3A_3_counts_excavation_and_stripping_regardless_of_depth():
    # 3,000 sq ft lowered 0.5 ft + 2,000 sq ft stripped = 5,000 sq ft (volume 1,500 cu ft also
    # trips (4): 1,500 > 1,350)
    r = check_permit(excavations=[(3000, 0.5)], strip_topsoil_sqft=2000)
    assert "§120-3A(3)" in r.triggers and r.permit_required is True
    r = check_permit(excavations=[(2000, 0.1)], strip_topsoil_sqft=2000, strip_topsoil_depth_in=1, lot_area_sqft=7000)
    assert r.triggers == ["§120-3A(3)"]  # 4,000 > 3,500 = half the lot
    expl = [e for e in r.explanations if e["section"] == "§120-3A(3)"][0]["explanation"]
    assert "more than 50% of the lot (3,500 sq ft)" in expl


# --------------------------------------------------------------------------- §120-3A(4)
def test_120_3A_4_volume_boundary():
    # 675 sq ft x 2 ft = 1,350 cu ft = 50 cu yd exactly: not "in excess of 50 cubic yards";
    # (2) needs more than 2 ft, (3) needs 5,000 sq ft -> no permit at all.
    r = check_permit(excavations=[(675, 2)], lot_area_sqft=10_000)
    assert r.triggers == [] and r.permit_required is False
    assert r.excavation_cy == D(50)
    r = check_permit(excavations=[("675.01", 2)])
    assert r.triggers == ["§120-3A(4)"]
    # 0.01 cu ft above in two pieces: 1,000 x 1 + 350.01 x 1 = 1,350.01 cu ft
    assert trig(excavations=[(1000, 1), ("350.01", 1)]) == ["§120-3A(4)"]


# --------------------------------------------------------------------------- §120-3A(5)-(7)
@pytest.mark.parametrize(
    "area,depth,section,holds",
    [
        (100, 4, "§120-3A(5)", False),
        (100, "4.01", "§120-3A(5)", True),
        (99, 6, "§120-3A(5)", False),
        (500, 2, "§120-3A(6)", False),
        (500, "2.01", "§120-3A(6)", True),
        (499, 3, "§120-3A(6)", False),
        ("999.99", "0.5", "§120-3A(7)", False),
        (1000, "0.1", "§120-3A(7)", True),
    ],
)
def test_120_3A_fill(area, depth, section, holds):
    assert (section in trig(fills=[(area, depth)])) is holds


def test_fill_only_100sqft_at_4ft_no_permit():
    r = check_permit(fills=[(100, 4)])
    assert not r.permit_required and r.fill_cy == D(400) / 27


# --------------------------------------------------------------------------- topsoil proviso
@pytest.mark.parametrize(
    "placement,exempt,holds7",
    [
        ((5000, 3, True), True, False),  # at both limits, seeded and mulched: exempt
        (("5000.01", 3, True), False, True),  # over 5,000 sq ft: counts as fill -> (7)
        ((4000, "3.01", True), False, True),  # deeper than 3 in -> (7)
        ((4000, 3, False), False, True),  # not seeded and mulched -> (7)
        ((900, 3, False), False, False),  # not exempt, but only 900 sq ft of fill: (7) not met
    ],
)
def test_topsoil_exemption(placement, exempt, holds7):
    r = check_permit(topsoil_placement=placement, lot_area_sqft=20_000)
    assert ("§120-3A(7)" in r.triggers) is holds7
    assert r.permit_required is holds7
    assert r.exemptions[0]["section"] == "§120-3A (topsoil proviso)"
    assert r.exemptions[0]["applies"] is exempt


def test_topsoil_exemption_only_covers_the_topsoil():
    # exempt topsoil 4,000 sq ft + 600 sq ft of ordinary fill: (7) looks at 600 only
    r = check_permit(fills=[(600, 1)], topsoil_placement=(4000, 2, True))
    assert r.permit_required is False
    # topsoil volume is reported: 4,000 x 2/12 = 666.67 cu ft = 24.69 cu yd
    assert r.to_dict()["topsoil_cy"] == 24.69
    # non-exempt topsoil adds its area: 600 + 4,000 >= 1,000
    assert check_permit(fills=[(600, 1)], topsoil_placement=(4000, 4, True)).triggers == ["§120-3A(7)"]


def test_permit_check_output():
    r = check_permit(excavations=[(600, "2.5")], lot_area_sqft=9000)
    d = r.to_dict()
    assert d["permit_required"] is True
    assert d["triggers"] == ["§120-3A(2)", "§120-3A(4)"]  # 1,500 cu ft = 55.56 cu yd
    assert d["excavation_cy"] == 55.56 and d["fill_cy"] == 0.0
    assert {e["section"] for e in d["explanations"]} == {f"§120-3A({i})" for i in range(1, 8)}
    assert any(s["section"] == "§120-8C" for s in d["review_standards"])
    assert not any(s["section"] == "§120-8A" for s in d["review_standards"])  # only 2.5 ft deep
    assert any("$2,0" in n and "$2,000" in n for n in d["notes"])
    assert any("whichever is less" in s for s in d["interpretation"])
    assert any(s["section"] == "§120-8A" for s in check_permit(excavations=[(10, 5)]).review_standards)


@pytest.mark.parametrize(
    "kw,msg",
    [
        (dict(excavations=[(-1, 2)]), "excavation 1 area_sqft must not be negative"),
        (dict(fills=[(10, -2)]), "fill 1 depth_ft must not be negative"),
        (dict(fills=[(10,)]), "expected \\(area_sqft, depth_ft\\)"),
        (dict(lot_area_sqft=0), "lot_area_sqft must be more than 0"),
        (dict(excavations=[("1e14", "1e14")]), "excavation 1 area_sqft must be from 0 sq ft to 100,000,000"),
        (dict(excavations=[(100, 2000)]), "excavation 1 depth_ft must be from 0 ft to 1,000 ft"),
        (dict(excavations=[(6000, 2)], lot_area_sqft=5000), "more than the lot area"),
        (dict(strip_topsoil_sqft=100, strip_topsoil_depth_in=500), "strip_topsoil_depth_in"),
        (dict(strip_topsoil_sqft="x"), "strip_topsoil_sqft must be a number"),
        (dict(jurisdiction="Ossining"), "unknown jurisdiction"),
        (dict(topsoil_placement=(10, 2)), "topsoil_placement"),
    ],
)
def test_check_permit_bad_input(kw, msg):
    with pytest.raises(ValueError, match=msg):
        check_permit(**kw)


# --------------------------------------------------------------------------- §120-8
def test_review_standards_numbers():
    def by(items, s):
        return [i for i in items if i["section"] == s][0]

    assert by(review_standards(4), "§120-8A")["fence_required"] is False
    assert by(review_standards("4.01"), "§120-8A")["fence_required"] is True
    assert by(review_standards(0, standing_water_ft=1), "§120-8C")["complies"] is True
    assert by(review_standards(0, standing_water_ft="1.01"), "§120-8C")["complies"] is False
    assert by(review_standards(0, standing_water_ft="0.01", after_construction=True), "§120-8C")["complies"] is False
    assert by(review_standards(0, standing_water_ft=0, after_construction=True), "§120-8C")["complies"] is True
    assert by(review_standards(0, topsoil_left_in=2), "§120-8E")["complies"] is True
    assert by(review_standards(0, topsoil_left_in="1.99"), "§120-8E")["complies"] is False


# 2026-06-01 is a Monday, 2026-06-06 a Saturday, 2026-06-07 a Sunday.
@pytest.mark.parametrize(
    "when,ok",
    [
        ("2026-06-01T07:59", False),
        ("2026-06-01T08:00", True),
        ("2026-06-01T19:59:59", True),
        ("2026-06-01T20:00", False),
        ("2026-06-01T23:30", False),
        ("2026-06-02T00:00", False),
        ("2026-06-06T08:00", True),
        ("2026-06-06T19:59", True),
        ("2026-06-06T20:00", False),
        ("2026-06-07T08:00", False),
        ("2026-06-07T09:59", False),
        ("2026-06-07T10:00", True),
        ("2026-06-07T19:59", True),
        ("2026-06-07T20:00", False),
    ],
)
def test_work_time_allowed_120_8G(when, ok):
    assert work_time_allowed(dt.datetime.fromisoformat(when)) is ok
    assert work_time_check(when)["section"] == "§120-8G"


def test_work_time_bad_input():
    with pytest.raises(ValueError):
        work_time_allowed("tomorrow")


# --------------------------------------------------------------------------- §120-5E, §120-12
@pytest.mark.parametrize("dia,dist,req", [(6, 0, True), (6, 25, True), ("5.99", 0, False), (6, "25.01", False)])
def test_tree_survey_120_5E(dia, dist, req):
    r = tree_survey_required(dia, dist)
    assert r["required"] is req and r["section"] == "§120-5E" and "3 ft" in r["explanation"]


def test_penalties_120_12():
    p = violation_penalties(1, days=3)
    assert (p["criminal_fine_min_per_day"], p["criminal_fine_max_per_day"]) == (D(500), D(1000))
    assert p["civil_penalty_max_total"] == D(9000)  # $3,000 x 3 days
    p = violation_penalties(2)
    assert (p["criminal_fine_min_per_day"], p["criminal_fine_max_per_day"]) == (D(1000), D(2000))
    assert p["imprisonment_max_days"] == 15
    assert any("$2,0" in n for n in p["notes"]) and any("$3,0" in n for n in p["notes"])
    with pytest.raises(ValueError):
        violation_penalties(0)


# --------------------------------------------------------------------------- Wesley Hills
def test_wesley_hills_2x_rule():
    # Cellar 40 x 30 x 9 ft = 10,800 cu ft = 400 cu yd; twice = 800 cu yd.
    r = wesley_hills_building_permit_check(40, 30, 9, fill_cy=800, excavated_cy=0)
    assert r.cellar_volume_cy == D(400) and r.limit_cy == D(800)
    assert r.building_permit_suffices and not r.separate_permit_required
    r = wesley_hills_building_permit_check(40, 30, 9, fill_cy=0, excavated_cy="800.01")
    assert r.separate_permit_required
    assert [e["holds"] for e in r.explanations if e["section"] == "§95-3C(1)"] == [True, False]
    # fill and removed material are each compared with 2x (not their sum)
    assert wesley_hills_building_permit_check(40, 30, 9, 700, 700).building_permit_suffices


def test_wesley_hills_waiver():
    # small garage: 20 x 20 x 4 = 1,600 cu ft = 59.26 cu yd, limit 118.52; 99.99 cu yd of fill
    # alone is within; 130 removed is not, but 130 >= 100 so no waiver.
    r = wesley_hills_building_permit_check(20, 20, 4, fill_cy=0, excavated_cy=130)
    assert r.separate_permit_required and not r.waiver_eligible
    r = wesley_hills_building_permit_check(10, 10, 2, fill_cy=0, excavated_cy="99.99")
    assert r.separate_permit_required and r.waiver_eligible  # limit 14.81; < 100 cu yd
    assert wesley_hills_waiver_eligible("99.99") and not wesley_hills_waiver_eligible(100)


def test_wesley_hills_check_permit():
    # 20 x 10 ft cut 2 ft = 400 cu ft = 14.81 cu yd: any operation needs a permit (§95-3A(1)(a))
    r = check_permit(excavations=[(200, 2)], jurisdiction="Wesley Hills")
    assert r.permit_required and r.triggers == ["§95-3A(1)(a)"] and r.waiver_eligible is True
    r = check_permit(excavations=[(1350, 2)], jurisdiction="wesley-hills")  # exactly 100 cu yd
    assert r.waiver_eligible is False
    assert not check_permit(jurisdiction="wesley-hills").permit_required


@pytest.mark.parametrize(
    "rise,run,rock,retained,ok",
    [
        (1, 2, False, False, True),
        (1, "1.99", False, False, False),
        (10, 20, False, False, True),
        (6, 1, True, False, True),
        ("6.01", 1, True, False, False),
        (5, 1, False, True, True),
        (0, 0, False, False, True),
        (1, 0, False, False, False),
    ],
)
def test_wesley_hills_slopes(rise, run, rock, retained, ok):
    r = wesley_hills_slope_check(rise, run, rock=rock, retained=retained)
    assert r["ok"] is ok and r["section"] == "§95-4E(1)(a)"


def test_wesley_hills_topsoil():
    # 8,100 sq ft x 4 in = 2,700 cu ft = 100 cu yd
    assert wesley_hills_topsoil_cy(8100) == D(100)
    assert wesley_hills_topsoil_cy(8100, 6) == D(150)
    with pytest.raises(ValueError, match="4 in minimum"):
        wesley_hills_topsoil_cy(100, 3)


# --------------------------------------------------------------------------- grid volumes
# Worked example: 3 x 3 nodes, 10 ft spacing -> four 10 x 10 = 100 sq ft cells.
# Depth h = proposed - existing (rows are y = 0, 10, 20; columns x = 0, 10, 20):
#     y=0 : [ 1,  1, -1]
#     y=10: [ 1,  2, -1]
#     y=20: [ 0,  1, -2]
# cell (0,0) corners 1,1,1,2: all fill, 100 x 5/4 = 125 cu ft fill
# cell (0,1) corners 1,-1,2,-1: P=3, N=2, sum|h|=5 -> fill 100 x 9/20 = 45, cut 100 x 4/20 = 20
# cell (1,0) corners 1,2,0,1: all fill, 100 x 4/4 = 100 cu ft fill
# cell (1,1) corners 2,-1,1,-2: P=3, N=3, sum|h|=6 -> fill 100 x 9/24 = 37.5, cut 37.5
# fill = 125 + 45 + 100 + 37.5 = 307.5 cu ft = 11.3889 cu yd
# cut  = 20 + 37.5 = 57.5 cu ft = 2.1296 cu yd; net (cut - fill) = -250 cu ft = -9.2593 cu yd
# check: fill - cut = 100 x (5 + 1 + 4 + 0)/4 = 250 cu ft, the plain borrow-pit net.
H = np.array([[1, 1, -1], [1, 2, -1], [0, 1, -2]], dtype=float)
EXIST = np.full((3, 3), 100.0)
PROP = EXIST + H


def test_grid_worked_example_2d():
    r = grid_volumes([0, 10, 20], [0, 10, 20], EXIST, PROP)
    assert r.fill_cy == pytest.approx(307.5 / 27)
    assert r.cut_cy == pytest.approx(57.5 / 27)
    assert r.net_cy == pytest.approx(-250 / 27)
    assert r.mixed_cells == 2
    assert r.cell_fill_cy * 27 == pytest.approx(np.array([[125, 45], [100, 37.5]]))
    assert r.cell_cut_cy * 27 == pytest.approx(np.array([[0, 20], [0, 37.5]]))
    # scalar spacings give the same
    assert grid_volumes(10, 10, EXIST, PROP).fill_cy == pytest.approx(307.5 / 27)


def _frame(E, P, step=10.0):
    ny, nx = E.shape
    xx, yy = np.meshgrid(np.arange(nx) * step, np.arange(ny) * step)
    return pd.DataFrame({"x": xx.ravel(), "y": yy.ravel(), "existing": E.ravel(), "proposed": P.ravel()})


def test_grid_from_points_any_order_and_csv(tmp_path):
    df = _frame(EXIST, PROP).sample(frac=1.0, random_state=3)
    r = grid_volumes_from_frame(df)
    assert r.fill_cy == pytest.approx(307.5 / 27) and r.cut_cy == pytest.approx(57.5 / 27)
    p = tmp_path / "grid.csv"
    df.rename(columns={"x": " X "}).to_csv(p, index=False)
    r = volume_from_grid_csv(p)
    assert r.to_dict()["cut_cy"] == 2.13 and r.to_dict()["fill_cy"] == 11.39 and r.to_dict()["net_cy"] == -9.26


def test_grid_metric():
    # same numbers read as metres: 307.5 m3 of fill = 307.5 / 0.764554857984 cu yd
    r = grid_volumes(10, 10, EXIST, PROP, metric=True)
    assert r.fill_cy == pytest.approx(307.5 / M3_PER_CU_YD)
    assert r.fill_cy == pytest.approx(402.19, abs=0.01)


def test_grid_errors(tmp_path):
    with pytest.raises(ValueError, match="not regular"):
        grid_volumes([0, 10, 25], [0, 10, 20], EXIST, PROP)
    df = _frame(EXIST, PROP)
    with pytest.raises(ValueError, match="not complete"):
        grid_volumes_from_frame(df.iloc[:-1])
    with pytest.raises(ValueError, match="duplicate"):
        bad = df.copy()
        bad.loc[8, ["x", "y"]] = [0.0, 0.0]  # (20, 20) replaced by a second (0, 0)
        grid_volumes_from_frame(bad)
    with pytest.raises(ValueError, match="missing column\\(s\\) 'proposed'"):
        grid_volumes_from_frame(df.drop(columns="proposed"))
    bad = df.astype(object)
    bad.loc[4, "existing"] = "n/a"
    with pytest.raises(ValueError, match="column 'existing' row 6"):
        grid_volumes_from_frame(bad)
    with pytest.raises(ValueError, match="same shape"):
        grid_volumes(10, 10, EXIST, PROP[:2])
    with pytest.raises(ValueError, match="at least 2 x 2"):
        grid_volumes(10, 10, EXIST[:1], PROP[:1])
    with pytest.raises(ValueError, match="not found"):
        volume_from_grid_csv(tmp_path / "none.csv")
    irregular = _frame(EXIST, PROP)
    irregular.loc[irregular.x == 20, "x"] = 25
    with pytest.raises(ValueError, match="x spacing varies"):
        grid_volumes_from_frame(irregular)


def test_grid_1000x1000_raised_one_foot():
    # A million-node grid (the size benchmarks/excavation_grid.py times) with the proposed grade
    # 1 ft above the existing everywhere: all fill, no cut. Plan area = (999 x 5 ft)^2
    # = 4,995^2 = 24,950,025 sq ft; x 1 ft = 24,950,025 cu ft / 27 = 924,075 cu yd exactly.
    rng = np.random.default_rng(1)
    E = rng.normal(100, 2, (1000, 1000))
    r = grid_volumes(5.0, 5.0, E, E + 1.0)
    assert r.cut_cy == pytest.approx(0.0, abs=1e-6)
    assert r.fill_cy == pytest.approx(924_075.0, rel=1e-9)


finite = st.floats(min_value=-50, max_value=50, allow_nan=False, allow_infinity=False)


@settings(max_examples=80, deadline=None)
@given(
    shape=st.tuples(st.integers(2, 7), st.integers(2, 7)), data=st.data(), dx=st.floats(0.5, 50), dy=st.floats(0.5, 50)
)
def test_grid_properties(shape, data, dx, dy):
    E = data.draw(arrays(float, shape, elements=finite))
    P = data.draw(arrays(float, shape, elements=finite))
    r = grid_volumes(dx, dy, E, P)
    assert r.cut_cy >= 0 and r.fill_cy >= 0
    assert (r.cell_cut_cy >= 0).all() and (r.cell_fill_cy >= 0).all()
    s = grid_volumes(dx, dy, P, E)  # reversed: cut and fill swap
    assert s.cut_cy == pytest.approx(r.fill_cy, rel=1e-12, abs=1e-9)
    assert s.fill_cy == pytest.approx(r.cut_cy, rel=1e-12, abs=1e-9)
    # fill - cut equals the plain borrow-pit net A * sum(mean corner depth)
    h = P - E
    mean = (h[:-1, :-1] + h[:-1, 1:] + h[1:, :-1] + h[1:, 1:]) / 4
    assert r.fill_cy - r.cut_cy == pytest.approx(dx * dy * mean.sum() / 27, rel=1e-9, abs=1e-6)


# --------------------------------------------------------------------------- end areas
# Worked example (stations 0+00, 1+00, 2+50):
#   cut areas 100, 400, 0 sq ft; fill areas 0, 0, 60 sq ft
#   segment 1 (L = 100): cut 100 x (100 + 400)/2 = 25,000 cu ft; fill 0
#   segment 2 (L = 150): cut 150 x (400 + 0)/2 = 30,000 cu ft; fill 150 x (0 + 60)/2 = 4,500
#   cut 55,000 cu ft = 2,037.04 cu yd; fill 4,500 cu ft = 166.67 cu yd; net 1,870.37
# Prismoidal (similar sections, V = L/3 (A1 + A2 + sqrt(A1 A2))):
#   segment 1 cut: 100/3 x (100 + 400 + 200) = 23,333.33 (correction 100 x (10 - 20)^2 / 6 = 1,666.67)
#   segment 2 cut: 150/3 x 400 = 20,000 (pyramid); fill: 150/3 x 60 = 3,000
#   cut 43,333.33 cu ft = 1,604.94 cu yd; fill 3,000 cu ft = 111.11 cu yd
STATIONS, CUT, FILL = ["0+00", "1+00", "2+50"], [100, 400, 0], [0, 0, 60]


def test_end_area_worked_example_with_cut_to_fill_transition():
    # 0+00 -> 1+00: cut 100 -> 400: 100 x (100 + 400) / 2 = 25,000 cu ft.
    # 1+00 -> 2+50 changes from all cut (400) to all fill (60): grade point at 150 x 400 / 460 =
    # 130.4348 ft after 1+00 (station 230.43); cut 130.4348 x 400 / 2 = 26,086.96 cu ft, fill
    # (150 - 130.4348) x 60 / 2 = 586.96 cu ft. Cut 51,086.96 / 27 = 1,892.11 cu yd; fill 21.74;
    # net 1,870.37 (the same net as without the grade point: the signed area is linear).
    r = end_area_volumes(STATIONS, CUT, FILL)
    assert r.segment_cut_cy * 27 == pytest.approx([25000, 150 * 400 / 460 * 200])
    assert r.fill_cy * 27 == pytest.approx((150 - 150 * 400 / 460) * 30)
    d = r.to_dict()
    assert (d["cut_cy"], d["fill_cy"], d["net_cy"]) == (1892.11, 21.74, 1870.37)
    assert d["transitions"] == [
        {"from": 100.0, "to": 250.0, "grade_point": pytest.approx(230.4348, abs=1e-4), "kind": "cut to fill"}
    ]
    assert any("zero-area point" in n and "230.43" in n for n in r.notes)


def test_prismoidal_wedge_pyramid_and_three_level():
    # Wedge: area 0 -> 100 sq ft over 100 ft, changing linearly (mid-area 50): V = 100/6 (0 + 200 +
    # 100) = 5,000 cu ft = 185.19 cu yd (the old frustum formula gave 3,333.33 = 123.46).
    w = end_area_volumes(
        [0, 100], [0, 100], [0, 0], prismoidal=True, cut_mid_area=[50, np.nan], fill_mid_area=[0, np.nan]
    )
    assert w.cut_cy * 27 == pytest.approx(5000) and round(w.cut_cy, 2) == 185.19
    # Pyramid: a square 0 -> 10 x 10 (mid 5 x 5 = 25): 100/6 (0 + 100 + 100) = 3,333.33 cu ft.
    p = end_area_volumes(
        [0, 100], [0, 100], [0, 0], prismoidal=True, cut_mid_area=[25, np.nan], fill_mid_area=[0, np.nan]
    )
    assert p.cut_cy * 27 == pytest.approx(10000 / 3)
    # Three-level correction: c 4 -> 2 ft, D 40 -> 30 ft, L 100: C = 100 x 2 x 10 / 12 = 166.67 cu ft
    # off the end-area 100 x (200 + 120) / 2 = 16,000 -> 15,833.33 cu ft.
    t = end_area_volumes([0, 100], [200, 120], [0, 0], prismoidal=True, center_height=[4, 2], width=[40, 30])
    assert t.cut_cy * 27 == pytest.approx(16000 - 2000 / 12)
    with pytest.raises(ValueError, match="mid-section areas"):
        end_area_volumes([0, 100], [0, 100], [0, 0], prismoidal=True)


def test_metric_stations():
    # "1+000" = 1,000 m, "1+050" = 1,050 m: 50 m x (10 + 30) / 2 = 1,000 m3 = 1,307.95 cu yd.
    r = end_area_volumes(["1+000", "1+050"], [10, 30], [0, 0], metric=True)
    assert list(r.stations) == [1000.0, 1050.0]
    assert r.cut_cy == pytest.approx(1000 / M3_PER_CU_YD)
    with pytest.raises(ValueError, match="metric notation"):
        end_area_volumes(["1+000", "1+050"], [10, 30], [0, 0])
    with pytest.raises(ValueError, match="feet notation"):
        end_area_volumes(["10+00", "10+50"], [10, 30], [0, 0], metric=True)


def test_end_area_csv_and_metric(tmp_path):
    f = tmp_path / "sections.csv"
    pd.DataFrame({"Station": STATIONS, "cut_area": CUT, "fill_area": FILL}).to_csv(f, index=False)
    assert volume_from_sections_csv(f).cut_cy == pytest.approx((25000 + 150 * 400 / 460 * 200) / 27)
    pd.DataFrame(
        {
            "Station": STATIONS,
            "cut_area": CUT,
            "fill_area": FILL,
            "cut_mid_area": [250, 200, None],
            "fill_mid_area": [0, 30, None],
        }
    ).to_csv(f, index=False)
    # prismoidal with mid-areas: 100/6 (100 + 1000 + 400) + 150/6 (400 + 800 + 0) = 25,000 + 30,000
    assert volume_from_sections_csv(f, prismoidal=True).cut_cy == pytest.approx(55000 / 27)
    r = end_area_volumes([0, 100, 250], CUT, FILL, metric=True)
    assert r.cut_cy == pytest.approx((25000 + 150 * 400 / 460 * 200) / M3_PER_CU_YD)


def test_parse_station():
    assert parse_station("12+50") == 1250.0
    assert parse_station("0+05.5") == 5.5
    assert parse_station(" 250 ") == 250.0
    with pytest.raises(ValueError):
        parse_station("A+1")


def test_end_area_errors(tmp_path):
    with pytest.raises(ValueError, match="strictly increasing"):
        end_area_volumes([0, 100, 100], CUT, FILL)
    with pytest.raises(ValueError, match="negative"):
        end_area_volumes([0, 100, 200], [1, -1, 0], FILL)
    with pytest.raises(ValueError, match="same length"):
        end_area_volumes([0, 100], CUT, FILL)
    with pytest.raises(ValueError, match="at least two"):
        end_area_volumes([0], [1], [1])
    f = tmp_path / "s.csv"
    f.write_text("station,cut_area\n0,1\n100,2\n")
    with pytest.raises(ValueError, match="missing column\\(s\\) 'fill_area'"):
        volume_from_sections_csv(f)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 8), data=st.data())
def test_end_area_properties(n, data):
    gaps = data.draw(st.lists(st.floats(0.1, 500), min_size=n - 1, max_size=n - 1))
    stations = np.concatenate([[0.0], np.cumsum(gaps)])
    areas = st.lists(st.floats(0, 1e4), min_size=n, max_size=n)
    c, f = data.draw(areas), data.draw(areas)
    r = end_area_volumes(stations, c, f)
    assert r.cut_cy >= 0 and r.fill_cy >= 0
    s = end_area_volumes(stations, f, c)
    assert s.cut_cy == pytest.approx(r.fill_cy) and s.fill_cy == pytest.approx(r.cut_cy)
    # grade points move volume between cut and fill but keep the net: sum L (dA1 + dA2) / 2, dA = cut - fill
    L, d = np.diff(stations), np.asarray(c) - np.asarray(f)
    assert r.net_cy * 27 == pytest.approx(float((L * (d[:-1] + d[1:]) / 2).sum()), rel=1e-9, abs=1e-6)
    # prismoidal with linear mid-areas equals the end-area volume without grade points
    mid_c = np.append((np.asarray(c[:-1]) + np.asarray(c[1:])) / 2, np.nan)
    mid_f = np.append((np.asarray(f[:-1]) + np.asarray(f[1:])) / 2, np.nan)
    p = end_area_volumes(stations, c, f, True, cut_mid_area=mid_c, fill_mid_area=mid_f)
    assert p.cut_cy * 27 == pytest.approx(
        float((L * (np.asarray(c[:-1]) + np.asarray(c[1:])) / 2).sum()), rel=1e-9, abs=1e-6
    )


def test_overflowing_inputs_are_refused_not_returned_as_nan():
    # 1e308 ft differences overflow float64 in h^2: a clear error, never NaN/inf volumes
    z = np.zeros((2, 2))
    with pytest.raises(ValueError, match="overflow"):
        grid_volumes(10.0, 10.0, z, np.full((2, 2), 1e308))


# --------------------------------------------------------------------------- §120-3B, 8M, 10A
def test_120_3B_foundation_under_a_building_permit_is_exempt():
    # A 40 x 30 ft cellar 9 ft deep = 1,200 sq ft x 9 ft = 10,800 cu ft = 400 cu yd would trip
    # (1), (2), (4) as plain excavation; as a foundation under a building permit it is covered.
    plain = check_permit(excavations=[(1200, 9)], lot_area_sqft=20_000)
    assert plain.permit_required is True and "§120-3A(1)" in plain.triggers
    r = check_permit(foundations=[(1200, 9)], lot_area_sqft=20_000)
    assert r.permit_required is False and r.triggers == []
    assert r.exemptions[0]["section"] == "§120-3B"
    assert "400.00 cu yd" in r.exemptions[0]["explanation"]
    # the building permit stays subject to §120-8: 9 ft deep -> the fence of §120-8A
    assert any(s["section"] == "§120-8A" for s in r.review_standards)
    # other work is tested on its own: 600 sq ft at 3 ft beside the foundation -> (2), (4)
    r = check_permit(foundations=[(1200, 9)], excavations=[(600, 3)], lot_area_sqft=20_000)
    assert r.triggers == ["§120-3A(2)", "§120-3A(4)"]


@pytest.mark.parametrize("h,need", [(4, False), ("4.01", True), (12, True)])
def test_120_8M_retaining_wall(h, need):
    # "A building permit shall be required if the retaining wall is more than four feet in height."
    r = check_permit(excavations=[(100, 1)], lot_area_sqft=10_000, retaining_wall_height_ft=h)
    wall = [s for s in r.review_standards if s["section"] == "§120-8M"][0]
    assert wall["building_permit_required"] is need


def test_120_10A_term_and_idle_days():
    from treecalc.rules.excavation import permit_term_check

    # Issued 2026-03-01: expires 2027-03-01 (one year). Last work 2026-06-01, as of 2026-07-31: 60
    # days idle (not more than 60); as of 2026-08-01: 61 days -> subject to termination.
    t = permit_term_check("2026-03-01", "2026-07-31", "2026-06-01")
    assert t["expires"] == "2027-03-01" and t["idle_days"] == 60 and t["subject_to_termination"] is False
    t = permit_term_check("2026-03-01", "2026-08-01", "2026-06-01")
    assert t["idle_days"] == 61 and t["subject_to_termination"] is True and not t["expired"]
    assert permit_term_check("2026-03-01", "2027-03-01")["expired"] is True
    with pytest.raises(ValueError, match="last_work"):
        permit_term_check("2026-03-01", "2026-08-01", "2026-09-01")


def test_wesley_hills_amount_moved_cellar_and_not_applicable():
    # No operation: the waiver is "not applicable", not False.
    r = check_permit(jurisdiction="wesley-hills")
    assert r.permit_required is False and r.to_dict()["waiver_eligible"] == "not applicable"
    # 1,350 sq ft x 2 ft = 2,700 cu ft = 100 cu yd excavated, the same soil placed as fill 1,350 x 1.5
    # = 2,025 cu ft = 75 cu yd: moved = max(100, 75) = 100 cu yd -> not "less than 100".
    r = check_permit(excavations=[(1350, 2)], fills=[(1350, 1.5)], jurisdiction="wesley-hills")
    assert r.waiver_eligible is False
    # 90 cu yd cut (2,430 cu ft) and 80 cu yd fill: moved 90 < 100 (not 170)
    r = check_permit(excavations=[(1215, 2)], fills=[(1080, 2)], jurisdiction="wesley-hills")
    assert r.waiver_eligible is True and any("amount moved" in s for s in r.interpretation)
    # Cellar 40 x 30 x 9 = 10,800 cu ft = 400 cu yd, limit 800: 1,200 sq ft x 9 ft excavated
    # (400 cu yd) and no fill -> the building permit is the permit (§95-3C(1)).
    r = check_permit(excavations=[(1200, 9)], jurisdiction="wesley-hills", cellar=(40, 30, 9))
    assert r.permit_required is False and r.building_permit["limit_cy"] == 800.0
    r = check_permit(excavations=[(4000, 6)], jurisdiction="wesley-hills", cellar=(40, 30, 9))
    assert r.permit_required is True  # 888.89 cu yd > 800


def test_grid_with_surveyor_headers_is_mapped(tmp_path):
    # Easting/Northing/EG/FG: a 2 x 2 node grid, 10 ft spacing, raised 1 ft everywhere -> 100 cu ft fill.
    f = tmp_path / "grid.csv"
    f.write_text("Easting,Northing,EG,FG\n0,0,5,6\n10,0,5,6\n0,10,5,6\n10,10,5,6\n")
    r = volume_from_grid_csv(f)
    assert r.fill_cy * 27 == pytest.approx(100) and r.cut_cy == 0
    e = r.earthwork()
    # 1 ft of fill everywhere: 100 sq ft filled at any depth, none deeper than 2 ft
    assert e.fill is not None and e.fill.total_sqft == 100 and e.fill[2] == 0


def test_a_decimal_comma_in_an_area_is_refused():
    # '1,5' ft read as 15 ft deep would turn a 1.5 ft cut into a §120-3A(1) trigger (> 4 ft).
    with pytest.raises(ValueError, match="comma"):
        check_permit(excavations=[(200, "1,5")])
    # '1,200' sq ft is a thousands separator: 1,200 x 3 ft = 3,600 cu ft = 133.33 cu yd
    assert round(float(check_permit(excavations=[("1,200", 3)]).excavation_cy), 2) == 133.33


def test_sections_csv_extra_values_semicolons_and_blank_lines(tmp_path):
    # Every row one value longer than the header made pandas take the station as the row index
    # and shift the columns. Refused, naming the row; ';' files are read; blank lines skipped and
    # rows numbered as in the file. 10 sq ft over 100 ft = 1,000 cu ft = 37.04 cu yd.
    p = tmp_path / "s.csv"
    p.write_text("station,cut_area,fill_area\n0,10,0,7\n100,10,0,7\n")
    with pytest.raises(ValueError, match="row 2.*4 values.*3 columns"):
        volume_from_sections_csv(p)
    p.write_bytes("\ufeffstation;cut_area;fill_area\n0;10;0\n\n100;10;0\n".encode())
    assert round(volume_from_sections_csv(p).cut_cy, 2) == 37.04
    p.write_text("station,cut_area,fill_area\n0,10,0\n\n100,x,0\n")
    with pytest.raises(ValueError, match="row 4 is not a number"):
        volume_from_sections_csv(p)


def test_wesley_hills_one_check_gives_one_waiver_answer():
    # Cut 1,500 sq ft x 1 ft = 55.56 cu yd and fill 1,500 x 1 = 55.56 cu yd, cellar 30 x 30 x 1 ft
    # (33.33 cu yd, limit 66.67). The top-level waiver (amount moved = max = 55.56 < 100) said yes
    # while building_permit.waiver_eligible in the same JSON said no (55.56 + 55.56 = 111.11 >= 100).
    r = check_permit(excavations=[(1500, 1)], fills=[(1500, 1)], jurisdiction="wesley-hills", cellar=(30, 30, 1))
    d = r.to_dict()
    assert d["waiver_eligible"] is True
    assert d["building_permit"]["waiver_eligible"] == d["waiver_eligible"]
    waiver_lines = [e for e in d["explanations"] + d["building_permit"]["explanations"] if e["section"] == "§95-3D(1)"]
    assert waiver_lines and all(e["holds"] is True for e in waiver_lines)
    # the reading's alternative is stated: imported fill would make 111.11 cu yd
    assert any("111.11" in e["explanation"] for e in d["explanations"] if e["section"] == "§95-3D(1)")


def test_overflowing_sections_are_refused_without_numpy_warnings():
    # Areas of 1e308 sq ft: (A1 + A2) / 2 overflows. The error was right but numpy printed three
    # RuntimeWarnings with source lines to the clerk's terminal first.
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="overflow"):
            end_area_volumes([0, 100], [1e308, 1e308], [0, 0])
        with pytest.raises(ValueError, match="overflow"):
            end_area_volumes([0, 1e308], [10, 10], [0, 0])


ORDINANCES = Path(__file__).resolve().parents[4] / "shared" / "ordinances"


@pytest.mark.skipif(
    not (Path("/work/shared/ordinances").exists() or ORDINANCES.exists()),
    reason="the ordinance texts are not on this machine",
)
@pytest.mark.parametrize(
    "toml_name,text_file",
    [
        ("croton_on_hudson/ch223_water.toml", "001_0c9dbbc0a401b0cd.txt"),
        ("croton_on_hudson/ch120_excavation.toml", "000_93ddf96a0c457a74.txt"),
        ("wesley_hills/ch95_excavation.toml", "004_408e8ed1e5666e02.txt"),
    ],
)
def test_law_numbers_quote_the_ordinance_verbatim(toml_name, text_file):
    # Every 'text' of a companion law number is a quotation: each part (between ' ... ') must occur
    # in the ordinance as received, apart from a stated reading of damaged text in parentheses.
    # (Wesley Hills' topsoil and slope entries were paraphrases: 'at least four inches of topsoil
    # over exposed ground' is not in Chapter 95, which says 'A minimum of four inches of topsoil'.)
    import re
    import tomllib

    base = Path("/work/shared/ordinances") if Path("/work/shared/ordinances").exists() else ORDINANCES
    law = " ".join((base / text_file).read_text(encoding="utf-8").split()).lower()
    entries = tomllib.loads((Path(__file__).resolve().parents[2] / "data" / "law" / toml_name).read_text())
    assert len(entries), "nothing to check: the loop below would pass on no item"
    # a provision's records ([sections.<name>]: a section that sets no number) quote the ordinance as entries do
    records = {f"sections.{k}": r for k, r in entries.pop("sections", {}).items()}
    for key, e in {**entries, **records}.items():
        quote = re.sub(r"\s*\((damaged text|read)[^)]*\)", "", e["text"])
        for part in quote.split(" ... "):
            part = " ".join(part.split()).lower()
            assert part in law, f"{toml_name} [{key}]: {part!r} is not in {text_file}"


# -- an input the chosen law does not read: refused (term, cellar) or said in the notes, never silently dropped --
def test_a_permit_term_for_wesley_hills_and_a_cellar_for_croton_are_refused():
    from treecalc.rules.excavation import PermitTerm

    # before: check_permit dropped them without a word (Chapter 95 has no term; Chapter 120 no cellar rule)
    with pytest.raises(
        ValueError,
        match=r"^term is a Croton-on-Hudson Chapter 120 input \(§120-10A: the permit term and idle time\): "
        r"Wesley Hills Chapter 95 does not read it, so it would not be used; leave it out, or use 'croton_on_hudson'",
    ):
        check_permit([(100, 2)], jurisdiction="wesley_hills", term=PermitTerm("2026-01-01", as_of="2026-02-01"))
    with pytest.raises(ValueError, match=r"^cellar is a Wesley Hills Chapter 95 input \(§95-3C\(1\): "):
        check_permit([(100, 2)], jurisdiction="croton_on_hudson", cellar=(40, 30, 8))


def test_a_retaining_wall_or_lot_area_for_wesley_hills_is_noted_and_changes_nothing():
    plain = check_permit([(100, 2)], jurisdiction="wesley_hills")
    r = check_permit([(100, 2)], jurisdiction="wesley_hills", retaining_wall_height_ft=6, lot_area_sqft=20_000)
    # 100 sq ft x 2 ft = 200 cu ft = 7.41 cu yd: an operation (§95-3A(1)(a)) either way
    assert r.permit_required is plain.permit_required is True and r.excavation_cy == plain.excavation_cy
    assert r.notes[: len(plain.notes)] == plain.notes
    assert r.notes[len(plain.notes) :] == [
        "retaining_wall_height_ft is a Croton-on-Hudson Chapter 120 input (§120-8M: a retaining wall over 4 ft "
        "needs a building permit): Wesley Hills Chapter 95 does not read it, so it is not used",
        "lot_area_sqft is a Croton-on-Hudson Chapter 120 input (§120-3A(3): lowering or stripping over half the "
        "lot): Wesley Hills Chapter 95 does not read it, so it is not used",
    ]


# -- Wesley Hills: §95-3D(4) lawns and gardens, §95-3C(1) without the cellar, one §95-3D(1) waiver ------------
def test_wesley_hills_topsoil_on_a_lawn_is_never_required():
    # 2,000 sq ft of topsoil 3 in deep, seeded (2,000 x 3/12 = 500 cu ft = 18.52 cu yd) and nothing else.
    # §95-3D(4): "the normal addition of topsoil to lawns and gardens" is not limited by the chapter, so the
    # answer depends on whether this is that: unknown, naming the fact; never REQUIRED (it was §95-3A(1)(a)).
    for seeded in (True, False):
        r = check_permit(topsoil_placement=(2000, 3, seeded), jurisdiction="wesley-hills")
        assert r.permit_required == "unknown" and r.triggers == []
        assert any("normal addition" in m and "lawn or garden" in m for m in r.missing_facts)
        assert [e["holds"] for e in r.explanations if e["section"] == "§95-3D(4)"] == [None]
    # with an excavation too (200 sq ft x 2 ft): that part is an operation, required whatever the topsoil is
    r = check_permit(topsoil_placement=(2000, 3, True), excavations=[(200, 2)], jurisdiction="wesley-hills")
    assert r.permit_required is True and r.missing_facts == []


def test_wesley_hills_foundation_without_the_cellar_is_unknown():
    # A 1,200 sq ft foundation 9 ft deep under a building permit: 10,800 cu ft = 400 cu yd excavated. §95-3C(1)
    # deems the building permit the permit while it stays within 2 x the cellar-and-foundation volume; no cellar
    # given, so the answer rests on it: unknown, naming the cellar (it was REQUIRED).
    r = check_permit(foundations=[(1200, 9)], jurisdiction="wesley-hills")
    assert r.permit_required == "unknown" and r.triggers == []
    assert any("cellar" in m and "‹cellar=L:W:D›" in m for m in r.missing_facts)
    # cellar 40 x 30 x 9 ft = 10,800 cu ft = 400 cu yd, limit 800 >= 400 removed: the building permit suffices
    r = check_permit(foundations=[(1200, 9)], jurisdiction="wesley-hills", cellar=(40, 30, 9))
    assert r.permit_required is False and r.missing_facts == []
    # cellar 20 x 20 x 9 = 3,600 cu ft = 133.33 cu yd, limit 266.67 < 400: a separate permit is required
    r = check_permit(foundations=[(1200, 9)], jurisdiction="wesley-hills", cellar=(20, 20, 9))
    assert r.permit_required is True


def test_wesley_hills_waiver_is_one_reading_everywhere():
    # 60 cu yd cut (810 sq ft x 2 ft = 1,620 cu ft) and 60 cu yd fill (the same): the amount moved is the larger,
    # 60 cu yd < 100 -> eligible; the sum (120) is only the alternative stated. excavation check said yes, the
    # app's building-permit panel (fill + removed = 120 >= 100) said no.
    r = check_permit(excavations=[(810, 2)], fills=[(810, 2)], jurisdiction="wesley-hills")
    assert r.waiver_eligible is True
    panel = wesley_hills_building_permit_check(40, 30, 9, fill_cy=60, excavated_cy=60)
    assert panel.waiver_eligible is True
    assert [e["holds"] for e in panel.explanations if e["section"] == "§95-3D(1)"] == [True]
    # one function behind both: 99.99 the larger -> yes; exactly 100 -> no ("less than 100")
    from treecalc.rules.excavation import wesley_hills_waiver

    assert wesley_hills_waiver(60, 60)["eligible"] is True and wesley_hills_waiver(60, 60)["moved_cy"] == 60
    assert wesley_hills_waiver("99.99", 0)["eligible"] is True and wesley_hills_waiver(0, 100)["eligible"] is False
    assert wesley_hills_building_permit_check(40, 30, 9, fill_cy=0, excavated_cy=100).waiver_eligible is False


def test_wesley_hills_waiver_unknown_only_when_it_depends_on_the_stripping():
    # 1,350 sq ft x 3 ft = 4,050 cu ft = 150 cu yd cut, plus topsoil stripped of no given depth: stripping only
    # adds, so the amount moved is at least 150 >= 100: no waiver, and no missing fact (the answer does not
    # depend on it). 200 sq ft x 2 ft = 14.81 cu yd plus stripping of unknown depth: unknown, naming the depth.
    r = check_permit(excavations=[(1350, 3)], strip_topsoil_sqft=1000, jurisdiction="wesley-hills")
    assert r.waiver_eligible is False and r.missing_facts == []
    r = check_permit(excavations=[(200, 2)], strip_topsoil_sqft=1000, jurisdiction="wesley-hills")
    assert r.waiver_eligible == "unknown" and any("depth of the topsoil" in m for m in r.missing_facts)


# -- wording: quantities at a sensible precision, the prismoidal method named first, facts only when needed ----
def test_no_28_digit_decimals_in_the_explanations():
    # 1,000 sq ft stripped 7 in deep: 1,000 x 7 / 12 = 583.333... cu ft, said as 583.33 cu ft (21.60 cu yd)
    r = check_permit(strip_topsoil_sqft=1000, strip_topsoil_depth_in=7, lot_area_sqft=20000)
    text = " ".join(e["explanation"] for e in r.explanations)
    assert "583.33 cu ft" in text and "583.333" not in text
    assert "= 21.60 cu yd" in text  # 583.33 / 27, to the cent (it read "21.6")
    # law numbers and inputs keep their digits: 0.3375 ft is not rounded away (1,350 cu ft / 4,000 sq ft)
    from treecalc.earthwork.quantities import fmt_number as _fmt

    assert _fmt(D("0.3375")) == "0.3375" and _fmt(D("1350")) == "1,350" and _fmt(D(1000) / 3) == "333.33"


def test_prismoidal_results_open_with_the_prismoidal_formula():
    # two stations 100 ft apart, end areas 10 and 30 sq ft, mid-section 18: prismoidal 100/6 (10 + 72 + 30)
    # = 1,866.67 cu ft (end-area would be 2,000)
    r = end_area_volumes(
        [0, 100], [10, 30], [0, 0], prismoidal=True, cut_mid_area=[18, np.nan], fill_mid_area=[0, np.nan]
    )
    assert round(r.cut_cy * 27, 2) == 1866.67
    assert r.notes[0].startswith("Prismoidal") and not any(n.startswith("Average-end-area method") for n in r.notes)
    plain = end_area_volumes([0, 100], [10, 30], [0, 0])
    assert plain.notes[0].startswith("Average-end-area method") and round(plain.cut_cy * 27, 2) == 2000


def test_missing_facts_only_when_the_verdict_depends_on_them():
    # 300 sq ft cut 5 ft deep: deeper than 4 ft over >= 100 sq ft -> §120-3A(1) required whatever the lot area;
    # no lot area given, yet (3) does not decide the answer: no missing fact listed
    r = check_permit(excavations=[(300, 5)], strip_topsoil_sqft=4000)
    assert r.permit_required is True and r.missing_facts == []
    # the same stripping alone depends on the lot area: listed
    assert check_permit(strip_topsoil_sqft=4000).missing_facts


def test_the_95_3d1_waiver_is_decided_once_and_carried_by_the_building_permit_check():
    from treecalc.rules.excavation import wesley_hills_building_permit_check

    # cellar 30 x 40 x 9 ft = 10,800 cu ft = 400 cu yd; fill 50, removed 60 cu yd: each within 2 x 400 (§95-3C(1))
    alone = wesley_hills_building_permit_check(30, 40, 9, 50, 60)
    # alone, it decides the waiver itself: 60 cu yd moved < 100 (§95-3D(1)), its third explanation
    assert alone.waiver_eligible is True and [e["section"] for e in alone.explanations][-1] == "§95-3D(1)"
    # given the waiver check_permit decided (there the stripping's depth was unknown), it decides nothing again
    given = wesley_hills_building_permit_check(30, 40, 9, 50, 60, waiver="unknown")
    assert given.waiver_eligible == "unknown" and [e["section"] for e in given.explanations] == ["§95-3C(1)"] * 2


def test_areas_in_the_sentences_are_said_to_the_hundredth_of_a_square_foot():
    """A measured plan area of 1,234.5678 sq ft dug 3 ft deep: §120-3A(1) reads 'over an area of 300 sq ft or
    more' (a law number, said as the law says it); the area itself is said to 0.01 sq ft, 1,234.57, and a whole
    area whole (600); on a 9,000.5 sq ft lot half is 4,500.25, less than §120-3A(3)'s 5,000."""
    from treecalc.rules import excavation as E

    r = E.check_permit(excavations=[(1234.5678, 3)], lot_area_sqft=9_000.5)
    text = " ".join(e["explanation"] for e in r.explanations)
    assert "1,234.57 sq ft" in text and "1,234.5678" not in text
    assert "9,000.5 sq ft lot" in text and "(4,500.25 sq ft)" in text
    r = E.check_permit(excavations=[(600, 3)], strip_topsoil_sqft=150.126, strip_topsoil_depth_in=6)
    text = " ".join(e["explanation"] for e in r.explanations)
    assert "over 750.13 sq ft" in text and "stripping 150.13 sq ft" in text  # 600 + 150.126 = 750.126
