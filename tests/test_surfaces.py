"""Surface-to-surface (TIN) volumes: exact against hand-worked solids, files, and the permit link."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treecalc.excavation import check_permit
from treecalc.surfaces import read_points, tin_volumes, volume_between_files


def flat_site(z: float = 100.0) -> np.ndarray:
    g = np.arange(-20, 71, 5.0)
    X, Y = np.meshgrid(g, np.arange(-20, 61, 5.0))
    return np.column_stack([X.ravel(), Y.ravel(), np.full(X.size, z)])


def pit_points() -> tuple[np.ndarray, np.ndarray]:
    """Flat ground at 100 ft; a pit 30 x 40 ft, 8 ft deep, walls 0.1 ft wide (floor points inside the rim)."""
    E = flat_site()
    x, y = E[:, 0], E[:, 1]
    outside = ~((x >= 0) & (x <= 30) & (y >= 0) & (y <= 40))
    xs, ys = np.arange(0, 30.1, 5.0), np.arange(0, 40.1, 5.0)
    rim = [(a, 0) for a in xs] + [(a, 40) for a in xs] + [(0, b) for b in ys[1:-1]] + [(30, b) for b in ys[1:-1]]
    floor_edge = [(min(max(a, 0.1), 29.9), min(max(b, 0.1), 39.9)) for a, b in rim]
    ix, iy = np.meshgrid(xs[1:-1], ys[1:-1])
    P = np.vstack(
        [
            E[outside],
            [(a, b, 100.0) for a, b in rim],
            [(a, b, 92.0) for a, b in floor_edge],
            np.column_stack([ix.ravel(), iy.ravel(), np.full(ix.size, 92.0)]),
        ]
    )
    return E, P


def test_pit_30_by_40_by_8():
    # The pit is 30 x 40 x 8 ft = 9,600 cu ft = 355.56 cu yd with vertical walls. With its floor
    # 0.1 ft inside the rim it is a prismoid: top 30 x 40 = 1,200, bottom 29.8 x 39.8 = 1,186.04,
    # middle 29.9 x 39.9 = 1,193.01; V = 8/6 (1,200 + 4 x 1,193.01 + 1,186.04) = 9,544.1067 cu ft
    # = 353.4854 cu yd, within 1% of 355.56 (-0.58%). No fill; cut area 1,200 sq ft; deeper than
    # 4 ft: the floor plus the wall half-way = (29.8 + 0.1) x (39.8 + 0.1) = 1,193.01 sq ft.
    E, P = pit_points()
    r = tin_volumes(E, P)
    assert r.cut_cy == pytest.approx(8 / 6 * (1200 + 4 * 29.9 * 39.9 + 29.8 * 39.8) / 27, rel=1e-9)
    assert abs(r.cut_cy / (30 * 40 * 8 / 27) - 1) < 0.01
    assert r.fill_cy == 0 and r.net_cy == pytest.approx(r.cut_cy)
    assert r.cut_area_sqft == pytest.approx(1200, rel=1e-9)
    assert r.cut_area_over_sqft[4.0] == pytest.approx(29.9 * 39.9, rel=1e-9)
    assert r.max_cut_ft == pytest.approx(8)
    # Linked to the permit: 1,193 sq ft deeper than 4 ft (>= 100) and 353 cu yd (> 50).
    c = check_permit(measured=r.earthwork(), lot_area_sqft=20_000)
    assert c.permit_required is True
    assert {"§120-3A(1)", "§120-3A(2)", "§120-3A(4)"} <= set(c.triggers)
    assert any(s["section"] == "§120-8A" for s in c.review_standards)  # deeper than 4 ft: fence


@settings(max_examples=40, deadline=None)
@given(
    a=st.floats(-0.2, 0.2),
    b=st.floats(-0.2, 0.2),
    c=st.floats(-5, 5),
    d=st.floats(-0.2, 0.2),
    e=st.floats(-0.2, 0.2),
    f=st.floats(-5, 5),
    n=st.integers(0, 40),
    seed=st.integers(0, 10_000),
)
def test_tin_cut_minus_fill_equals_the_exact_volume_between_two_planes(a, b, c, d, e, f, n, seed):
    # Over the square [0, 60] x [0, 40] both surfaces are planes, sampled at the corners plus random
    # points (different in each set). cut - fill = integral of (existing - proposed)
    # = A (dz at the centre) because a plane's mean over a rectangle is its value at the centre.
    rng = np.random.default_rng(seed)
    corners = np.array([[0, 0], [60, 0], [0, 40], [60, 40]], float)

    def pts(p, q, r):
        xy = np.vstack([corners, rng.uniform([0, 0], [60, 40], (n, 2))])
        return np.column_stack([xy, p * xy[:, 0] + q * xy[:, 1] + r])

    res = tin_volumes(pts(a, b, 100 + c), pts(d, e, 100 + f))
    exact = 60 * 40 * ((a - d) * 30 + (b - e) * 20 + (c - f))
    # (depths within 1e-9 x elevation of zero are read as zero: up to 2,400 x 1e-9 x 105 = 2.5e-4 cu ft)
    assert res.net_cy * 27 == pytest.approx(exact, abs=1e-6 * (1 + abs(exact)) + 3e-4)
    assert res.cut_cy >= 0 and res.fill_cy >= 0
    assert res.area_sqft == pytest.approx(2400)


def _landxml(name_pts: dict[str, np.ndarray]) -> str:
    surfaces = []
    for name, p in name_pts.items():
        pts = "".join(f'<P id="{i + 1}">{y} {x} {z}</P>' for i, (x, y, z) in enumerate(p))
        surfaces.append(f'<Surface name="{name}"><Definition surfType="TIN"><Pnts>{pts}</Pnts></Definition></Surface>')
    return (
        '<?xml version="1.0"?><LandXML xmlns="http://www.landxml.org/schema/LandXML-1.2" version="1.2">'
        f"<Surfaces>{''.join(surfaces)}</Surfaces></LandXML>"
    )


def test_landxml_surface_pair(tmp_path):
    # Two LandXML files (northing easting elevation): the pit above, at state-plane coordinates
    # (E 640,000, N 890,000) to show that large coordinates keep their precision: 353.4854 cu yd.
    E, P = pit_points()
    off = np.array([640_000.0, 890_000.0, 0.0])
    (tmp_path / "eg.xml").write_text(_landxml({"EG": E + off}))
    (tmp_path / "fg.xml").write_text(_landxml({"FG": P + off}))
    r = volume_between_files(tmp_path / "eg.xml", tmp_path / "fg.xml")
    assert round(r.cut_cy, 2) == 353.49 and r.fill_cy == 0
    # one file with both surfaces: picked by name (EG existing, FG proposed) or FILE#NAME
    (tmp_path / "both.xml").write_text(_landxml({"Existing Ground": E, "Finished Grade": P}))
    r = volume_between_files(tmp_path / "both.xml", tmp_path / "both.xml")
    assert round(r.cut_cy, 2) == 353.49
    r = volume_between_files(f"{tmp_path / 'both.xml'}#Existing Ground", f"{tmp_path / 'both.xml'}#Finished Grade")
    assert round(r.cut_cy, 2) == 353.49
    with pytest.raises(ValueError, match="no surface named 'X'"):
        read_points(f"{tmp_path / 'both.xml'}#X")


def test_landxml_is_parsed_safely(tmp_path):
    bomb = (
        '<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]>'
        '<LandXML><Surfaces><Surface name="s"><Definition><Pnts><P>&b;</P></Pnts></Definition></Surface>'
        "</Surfaces></LandXML>"
    )
    (tmp_path / "bomb.xml").write_text(bomb)
    with pytest.raises(ValueError, match="not a readable LandXML"):
        read_points(tmp_path / "bomb.xml")


def test_point_csv_headers(tmp_path):
    # Surveyor headers: Easting/Northing/Elevation (ft), and one file with EG and FG columns.
    E, P = pit_points()
    import pandas as pd

    pd.DataFrame({"Point": range(len(E)), "Northing": E[:, 1], "Easting": E[:, 0], "Elevation (ft)": E[:, 2]}).to_csv(
        tmp_path / "eg.csv", index=False
    )
    pd.DataFrame({"POINT_X": P[:, 0], "POINT_Y": P[:, 1], "Z": P[:, 2]}).to_csv(tmp_path / "fg.csv", index=False)
    assert round(volume_between_files(tmp_path / "eg.csv", tmp_path / "fg.csv").cut_cy, 2) == 353.49
    both = pd.DataFrame({"E": [0, 10, 0, 10], "N": [0, 0, 10, 10], "EG": [5, 5, 5, 5], "FG": [6, 6, 6, 6]})
    both.to_csv(tmp_path / "both.csv", index=False)
    # 10 x 10 ft raised 1 ft: 100 cu ft of fill = 3.70 cu yd
    r = volume_between_files(tmp_path / "both.csv", tmp_path / "both.csv")
    assert r.fill_cy * 27 == pytest.approx(100) and r.cut_cy == 0
    (tmp_path / "bad.csv").write_text("Easting,Northing,Elevation\n0,0,1\n1,0,x\n0,1,1\n")
    with pytest.raises(ValueError, match="row 3 column 'Elevation' is not a number"):
        read_points(tmp_path / "bad.csv")
    (tmp_path / "dup.csv").write_text("x,y,z\n0,0,1\n0,0,2\n1,0,1\n0,1,1\n")
    with pytest.raises(ValueError, match="different elevations"):
        read_points(tmp_path / "dup.csv")
    (tmp_path / "line.csv").write_text("x,y,z\n0,0,1\n1,1,1\n2,2,1\n")
    with pytest.raises(ValueError, match="on one line"):
        volume_between_files(tmp_path / "line.csv", tmp_path / "line.csv")
