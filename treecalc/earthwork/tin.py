"""Surface-to-surface earthwork volumes: two triangulated surfaces (TINs) differenced exactly.

- :func:`tin_volumes`: cut and fill between an existing and a proposed point set. Each set is
  triangulated (Delaunay, scipy); the two TINs are overlaid (every triangle of one clipped by the
  triangles of the other whose bounding boxes meet (shapely STRtree), vectorised Sutherland-Hodgman), so on each overlay piece both surfaces are planes and the
  depth ``proposed - existing`` is linear. Cut and fill are integrated exactly on each piece,
  splitting it where the depth changes sign; the plan areas cut or filled deeper than any depth come
  out the same way (:class:`~treecalc.earthwork.quantities.PlanAreas`, at the depths a law asks).
- The points are read from files by :mod:`treecalc.earthwork.readers`.

Feet in (metres with ``metric=True``), cubic yards out. Sign convention everywhere: ``cut`` is
where the existing ground is above the proposed (material removed), ``fill`` below;
``net_cy = cut_cy - fill_cy`` (positive: surplus to export).

References
----------
.. [1] Ghilani, C. D. and Wolf, P. R., *Elementary Surveying*, 13th ed., 2012, ch. 26 (volumes
   from triangulated irregular networks: prisms between two surfaces).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import ArrayLike

from treecalc.earthwork.quantities import CutFill, Earthwork, PlanAreas, depth_ft, input_units

if TYPE_CHECKING:  # pandas is imported where used: reading points does not need it
    import pandas as pd

__all__ = ["TinVolumes", "tin_volumes", "cut_fill_raster", "area_above", "MAX_POINTS", "MAX_COORD"]

MAX_POINTS = 200_000  # ~45 s and ~2.7 GB for two such surveys on 2 cores (100,000: 21 s, 1.35 GB)
MAX_COORD = 1e9


def _clean_points(points: ArrayLike, what: str) -> np.ndarray:
    pts = np.asarray(points, dtype=float)
    if pts.ndim != 2 or pts.shape[1] != 3:
        raise ValueError(f"{what}: expected points of x, y, z, got shape {pts.shape}")
    if not np.isfinite(pts).all():
        raise ValueError(f"{what}: coordinates must be finite numbers")
    if (np.abs(pts) > MAX_COORD).any():
        raise ValueError(f"{what}: coordinates larger than {MAX_COORD:,.0f} (check the units)")
    if len(pts) > MAX_POINTS:
        raise ValueError(
            f"{what}: {len(pts):,} points; at most {MAX_POINTS:,} are accepted (thin the survey, "
            "e.g. to a 1 ft spacing, or split the site)"
        )
    xy, inv = np.unique(pts[:, :2], axis=0, return_inverse=True)
    inv = inv.ravel()
    if len(xy) < len(pts):
        zmin = np.full(len(xy), np.inf)
        zmax = np.full(len(xy), -np.inf)
        np.minimum.at(zmin, inv, pts[:, 2])
        np.maximum.at(zmax, inv, pts[:, 2])
        clash = np.flatnonzero(zmax - zmin > 1e-9)
        if len(clash):
            x, y = xy[clash[0]]
            raise ValueError(
                f"{what}: the point x={x:g}, y={y:g} is given with different elevations "
                f"({zmin[clash[0]]:g} and {zmax[clash[0]]:g}); a surface has one elevation per point"
            )
        pts = np.column_stack([xy, zmin])
    if len(pts) < 3:
        raise ValueError(f"{what}: a surface needs at least 3 points, got {len(pts)}")
    return pts


# --------------------------------------------------------------------------- exact integration
def _planes(pts: np.ndarray, simplices: np.ndarray) -> np.ndarray:
    """Plane coefficients (a, b, c) of z = a x + b y + c for each triangle."""
    p = pts[simplices]  # (m, 3, 3)
    A = np.concatenate([p[:, :, :2], np.ones((len(p), 3, 1))], axis=2)
    return np.linalg.solve(A, p[:, :, 2:3])[:, :, 0]


def _positive_part(h: np.ndarray, area: np.ndarray) -> np.ndarray:
    """Integral of max(h, 0) over triangles with linear h (vertex values (m, 3), plan areas (m,))."""
    s = -np.sort(-h, axis=1)  # descending: ha >= hb >= hc
    ha, hb, hc = s[:, 0], s[:, 1], s[:, 2]
    total = area * (ha + hb + hc) / 3
    out = np.zeros_like(area)
    with np.errstate(divide="ignore", invalid="ignore"):
        one = area * ha**3 / (3 * (ha - hb) * (ha - hc))  # only ha > 0
        two = total + area * (-hc) ** 3 / (3 * (ha - hc) * (hb - hc))  # ha, hb > 0 > hc
    out = np.where(hc >= 0, total, out)
    out = np.where((ha > 0) & (hb <= 0), one, out)
    out = np.where((hb > 0) & (hc < 0), two, out)
    return np.where(ha <= 0, 0.0, out)


def area_above(g: np.ndarray, area: np.ndarray) -> np.ndarray:
    """Plan area of each triangle where the linear function with vertex values ``g`` is > 0."""
    s = -np.sort(-g, axis=1)
    ga, gb, gc = s[:, 0], s[:, 1], s[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        one = area * ga**2 / ((ga - gb) * (ga - gc))
        two = area - area * gc**2 / ((ga - gc) * (gb - gc))
    out = np.where(gc > 0, area, 0.0)
    out = np.where((ga > 0) & (gb <= 0), one, out)
    out = np.where((gb > 0) & (gc <= 0), two, out)
    return np.where(ga <= 0, 0.0, out)


def _clip(subject: np.ndarray, clip: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Intersections of triangle pairs (Sutherland-Hodgman, vectorised): ``subject``, ``clip`` (n, 3, 2).

    Returns the convex polygons as vertices (n, 7, 2) and their vertex counts (n,) (0-2: no area);
    a triangle clipped by three half-planes has at most six vertices.
    """
    n, K = len(subject), 7
    c = clip.copy()
    ccw = (
        (c[:, 1, 0] - c[:, 0, 0]) * (c[:, 2, 1] - c[:, 0, 1]) - (c[:, 1, 1] - c[:, 0, 1]) * (c[:, 2, 0] - c[:, 0, 0])
    ) > 0
    c[~ccw] = c[~ccw][:, ::-1]  # counter-clockwise clip triangles: "inside" is left of each edge
    poly = np.zeros((n, K, 2))
    poly[:, :3] = subject
    count = np.full(n, 3)
    rows = np.arange(n)
    for k in range(3):
        a, b = c[:, k], c[:, (k + 1) % 3]
        ex, ey = (b - a)[:, 0:1], (b - a)[:, 1:2]
        d = ex * (poly[..., 1] - a[:, 1:2]) - ey * (poly[..., 0] - a[:, 0:1])  # (n, K): >= 0 inside
        out = np.zeros_like(poly)
        oc = np.zeros(n, dtype=int)
        for i in range(int(count.max(initial=0))):
            live = i < count
            j = np.where(i == 0, count - 1, i - 1)  # previous vertex, cyclic
            cur, prev = poly[:, i], poly[rows, j]
            dc, dp = d[:, i], d[rows, j]
            cin, pin = dc >= 0, dp >= 0
            cross = live & (cin != pin)
            with np.errstate(divide="ignore", invalid="ignore"):
                t = np.where(cross, dp / (dp - dc), 0.0)[:, None]
            hit = prev + t * (cur - prev)
            idx = np.flatnonzero(cross)
            out[idx, oc[idx]] = hit[idx]
            oc[idx] += 1
            idx = np.flatnonzero(live & cin)
            out[idx, oc[idx]] = cur[idx]
            oc[idx] += 1
        poly, count = out, oc
    return poly, count


def _separated(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Pairs of triangles (n, 3, 2) that an edge of ``b`` separates (all of ``a`` strictly outside it)."""
    sign = np.sign(
        (b[:, 1, 0] - b[:, 0, 0]) * (b[:, 2, 1] - b[:, 0, 1]) - (b[:, 1, 1] - b[:, 0, 1]) * (b[:, 2, 0] - b[:, 0, 0])
    )[:, None]
    out = np.zeros(len(a), bool)
    for k in range(3):
        p, q = b[:, k], b[:, (k + 1) % 3]
        d = ((q - p)[:, 0:1] * (a[..., 1] - p[:, 1:2]) - (q - p)[:, 1:2] * (a[..., 0] - p[:, 0:1])) * sign
        out |= (d < 0).all(axis=1)
    return out


def _tri_area(xy: np.ndarray) -> np.ndarray:
    """Plan areas of triangles (k, 3, 2)."""
    v, w = xy[:, 1] - xy[:, 0], xy[:, 2] - xy[:, 0]
    return 0.5 * np.abs(v[:, 0] * w[:, 1] - v[:, 1] * w[:, 0])


def _overlay(e_pts: np.ndarray, p_pts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[float, float]]:
    """Triangles (k, 3, 2) of the overlay of both TINs, with the existing and proposed z at their corners,
    and the plan areas the existing and the proposed TIN cover."""
    import shapely  # heavy: shapely, loaded only when this runs
    from scipy.spatial import Delaunay, QhullError  # heavy: scipy, loaded only when this runs

    tins = []
    for pts, what in ((e_pts, "existing"), (p_pts, "proposed")):
        try:
            tri = Delaunay(pts[:, :2])
        except QhullError:
            raise ValueError(f"the {what} points are all on one line: they do not make a surface") from None
        xy = pts[tri.simplices][:, :, :2]
        tins.append((xy, _planes(pts, tri.simplices), shapely.polygons(xy)))
    (xy_e, pe, polys_e), (xy_p, pp, polys_p) = tins
    ip, ie = shapely.STRtree(polys_e).query(polys_p)  # pairs whose bounding boxes meet
    keep = ~_separated(xy_p[ip], xy_e[ie])
    ip, ie = ip[keep], ie[keep]
    poly, count = _clip(xy_p[ip], xy_e[ie])
    tris, owner = [], []
    for j in range(1, poly.shape[1] - 1):  # fan (0, j, j + 1) of each convex piece
        m = np.flatnonzero(count > j + 1)
        tris.append(np.stack([poly[m, 0], poly[m, j], poly[m, j + 1]], axis=1))
        owner.append(m)
    tri_xy, piece = np.concatenate(tris), np.concatenate(owner)
    covered = (float(_tri_area(xy_e).sum()), float(_tri_area(xy_p).sum()))
    # pieces of no area (TINs that only touch along an edge or at a corner) are no overlap
    if len(tri_xy) == 0 or _tri_area(tri_xy).sum() <= 1e-9 * min(covered):
        raise ValueError(
            "the existing and proposed surfaces do not overlap: check that both use the same "
            "coordinate system and units"
        )

    def z(planes: np.ndarray, which: np.ndarray) -> np.ndarray:
        c = planes[which][:, None, :]
        return c[..., 0] * tri_xy[..., 0] + c[..., 1] * tri_xy[..., 1] + c[..., 2]

    return tri_xy, z(pe, ie[piece]), z(pp, ip[piece]), covered


@dataclass(frozen=True)
class TinVolumes(CutFill):
    """Cut and fill between two TINs (cubic yards), and the plan areas for a permit check.

    Areas in square feet (square metres converted), depths in feet. ``cut_area_over_sqft`` /
    ``fill_area_over_sqft``: the plan areas deeper than each depth asked of :func:`tin_volumes` (0 always);
    :meth:`earthwork` measures them at any depth. ``pieces`` holds the overlay triangles' centroids (x, y in
    input units) and their cut and fill in cubic yards, for a map.
    """

    area_sqft: float
    cut_area_sqft: float
    fill_area_sqft: float
    cut_area_over_sqft: dict[float, float]
    fill_area_over_sqft: dict[float, float]
    max_cut_ft: float
    max_fill_ft: float
    n_existing: int
    n_proposed: int
    units: str
    #: Per overlay piece: x, y (centroid), cut and fill (cu yd); for the map.
    pieces: np.ndarray | None = field(repr=False, default=None)
    notes: list[str] = field(default_factory=list)
    #: Per overlay triangle: the depths in feet at its corners (proposed - existing) and its plan area (input
    #: units), and the square feet per square input unit.
    triangles: tuple[np.ndarray, np.ndarray, float] | None = field(repr=False, default=None)

    def area_deeper_than(self, depth: float, kind: str) -> float:
        """The plan area (sq ft) cut (``kind`` "cut") or filled deeper than ``depth`` ft (0: at any depth)."""
        if self.triangles is None:
            raise ValueError("this result carries no overlay triangles to measure areas on")
        hf, area, k_area = self.triangles
        return float(area_above((-hf if kind == "cut" else hf) - depth, area).sum() * k_area)

    def earthwork(self) -> Earthwork:
        """The quantities of this result for a permit check (``measured=``)."""

        def d(x: float) -> Decimal:
            return Decimal(repr(round(x, 6)))

        return Earthwork(
            cut_cuft=self._cuft(self.cut_cy),
            fill_cuft=self._cuft(self.fill_cy),
            cut=PlanAreas(lambda t: d(self.area_deeper_than(t, "cut"))),
            fill=PlanAreas(lambda t: d(self.area_deeper_than(t, "fill"))),
            max_cut_ft=d(self.max_cut_ft),
            method="TIN surface to surface",
        )

    def cut_fill_map(self, max_cells: int = 80) -> pd.DataFrame:
        """Net cut - fill (cu yd; + cut, - fill) summed on a raster, for a map (see :func:`cut_fill_raster`)."""
        p = self.pieces
        if p is None:
            raise ValueError("this result carries no overlay pieces to map")
        return cut_fill_raster(p[:, 0], p[:, 1], p[:, 2], p[:, 3], max_cells)

    def to_dict(self) -> dict[str, Any]:
        return {
            **self._totals("TIN surface to surface (Delaunay, exact overlay)"),
            "area_sqft": round(self.area_sqft, 2),
            "cut_area_sqft": round(self.cut_area_sqft, 2),
            "fill_area_sqft": round(self.fill_area_sqft, 2),
            "cut_area_deeper_than_ft_sqft": {f"{k:g}": round(v, 2) for k, v in self.cut_area_over_sqft.items()},
            "fill_area_deeper_than_ft_sqft": {f"{k:g}": round(v, 2) for k, v in self.fill_area_over_sqft.items()},
            "max_cut_ft": round(self.max_cut_ft, 3),
            "max_fill_ft": round(self.max_fill_ft, 3),
            "points_existing": self.n_existing,
            "points_proposed": self.n_proposed,
            "units_in": self.units,
            "notes": list(self.notes),
        }


def tin_volumes(
    existing: ArrayLike, proposed: ArrayLike, *, metric: bool = False, depths_ft: Sequence[float] = ()
) -> TinVolumes:
    """Cut and fill between an existing and a proposed surface, each given as points (x, y, z).

    Parameters
    ----------
    existing, proposed : array_like, shape (n, 3)
        Points of the existing and proposed ground: x, y (plan) and z (elevation), feet (metres
        if ``metric``). Each set is triangulated (Delaunay); breaklines follow from the points
        (survey the top and toe of a wall a little apart to keep it steep).
    metric : bool
        Coordinates in metres; volumes still in cubic yards, areas in square feet.
    depths_ft : sequence of float
        Depths (feet) to report the plan areas cut and filled deeper than (with 0, at any depth).

    Returns
    -------
    TinVolumes
        ``cut_cy``, ``fill_cy``, ``net_cy = cut_cy - fill_cy`` over the area both surfaces cover,
        the plan areas cut or filled at all and deeper than each of ``depths_ft``, and the overlay pieces.

    Notes
    -----
    On each overlay piece the depth h = proposed - existing is linear; with vertex depths sorted
    ha >= hb >= hc and plan area A, the fill (h > 0) is A (ha+hb+hc)/3 when hc >= 0, A ha^3 /
    (3 (ha-hb)(ha-hc)) when only ha > 0, and the total plus A (-hc)^3 / (3 (ha-hc)(hb-hc)) when
    only hc < 0; the cut is the same for -h. Exact for planar pieces: the error is only floating point.

    References
    ----------
    .. [1] Ghilani and Wolf, *Elementary Surveying*, 13th ed., ch. 26.
    """
    e = _clean_points(existing, "existing surface")
    p = _clean_points(proposed, "proposed surface")
    origin = np.array([*e[:, :2].min(axis=0), 0.0])  # local coordinates: state-plane eastings keep their precision
    tri_xy, ze, zp, covered = _overlay(e - origin, p - origin)
    area = _tri_area(tri_xy)
    h = zp - ze
    # depths within rounding noise of zero are zero (a flat area left as is must not show as cut or fill)
    h = np.where(np.abs(h) <= 1e-9 * (1.0 + np.abs(ze).max()), 0.0, h)
    fill = _positive_part(h, area)
    cut = _positive_part(-h, area)
    u = input_units(metric)
    k_vol, k_area, k_len = u.cu_yd, u.sq_ft, u.ft
    # a law's depth thresholds ("in excess of four feet") are compared with depths at the survey's
    # precision: 131.99 - 127.99 is 4.000000000000014 in floating point, and exactly 4.00 ft is not over 4 ft
    hf = depth_ft(h, k_len)
    depths = sorted({0.0, *(float(t) for t in depths_ft)})
    cut_over = {t: float(area_above(-hf - t, area).sum() * k_area) for t in depths}
    fill_over = {t: float(area_above(hf - t, area).sum() * k_area) for t in depths}
    c, f = float(cut.sum() * k_vol), float(fill.sum() * k_vol)
    if not (math.isfinite(c) and math.isfinite(f)):
        raise ValueError("the volumes overflow: coordinates or elevations are far too large (check the units)")
    centroid = tri_xy.mean(axis=1) + origin[:2]
    pieces = np.column_stack([centroid, cut * k_vol, fill * k_vol])
    notes = [
        "Existing and proposed points are each triangulated (Delaunay) and the two TINs overlaid; on every "
        "overlay piece the depth is linear and cut and fill are integrated exactly (split where the depth "
        "changes sign).",
        f"Volumes cover only the plan area both surfaces cover: {float(area.sum() * k_area):,.2f} sq ft.",
        "net_cy = cut_cy - fill_cy: positive is surplus material to export, negative is material to import.",
    ]
    notes += _coverage_notes(float(area.sum()), covered, k_area)
    return TinVolumes(
        cut_cy=c,
        fill_cy=f,
        area_sqft=float(area.sum() * k_area),
        cut_area_sqft=cut_over[0.0],
        fill_area_sqft=fill_over[0.0],
        cut_area_over_sqft=cut_over,
        fill_area_over_sqft=fill_over,
        max_cut_ft=float(max(0.0, (-hf).max())),
        max_fill_ft=float(max(0.0, hf.max())),
        n_existing=len(e),
        n_proposed=len(p),
        units=u.name,
        pieces=pieces,
        notes=notes,
        triangles=(hf, area, k_area),
    )


def _coverage_notes(overlap: float, covered: tuple[float, float], k_area: float) -> list[str]:
    """Say how much of each surface lies outside the other (not counted in the volumes)."""
    out = []
    for (what, other), total in zip((("existing", "proposed"), ("proposed", "existing")), covered):
        left = total - overlap
        if left > 1e-6 * total:
            out.append(
                f"{left * k_area:,.2f} sq ft ({100 * left / total:.0f}%) of the {what} surface lies outside "
                f"the {other} surface and is not counted: survey both over the same area for the whole "
                "earthwork."
            )
    return out


def cut_fill_raster(
    x: np.ndarray, y: np.ndarray, cut_cy: np.ndarray, fill_cy: np.ndarray, max_cells: int = 80
) -> pd.DataFrame:
    """Net cut - fill (cu yd) summed on a raster of at most ``max_cells`` per axis, for a map.

    Returns a DataFrame with ``x``, ``y`` (cell centres, input units) and ``net_cy`` (cut - fill:
    positive = cut, negative = fill), one row per cell that holds any volume.
    """
    import pandas as pd  # heavy: pandas, loaded only when this runs

    x, y = np.asarray(x, float), np.asarray(y, float)
    net = np.asarray(cut_cy, float) - np.asarray(fill_cy, float)
    if x.size == 0:
        return pd.DataFrame({"x": [], "y": [], "net_cy": []})
    span = max(float(np.ptp(x)), float(np.ptp(y)), 1e-9)
    step = span / max_cells
    ix = np.minimum(((x - x.min()) / step).astype(int), max_cells - 1)
    iy = np.minimum(((y - y.min()) / step).astype(int), max_cells - 1)
    df = pd.DataFrame({"ix": ix, "iy": iy, "net_cy": net}).groupby(["ix", "iy"], as_index=False)["net_cy"].sum()
    df["x"] = np.round(x.min() + (df["ix"] + 0.5) * step, 2)
    df["y"] = np.round(y.min() + (df["iy"] + 0.5) * step, 2)
    return df[["x", "y", "net_cy"]]
