"""Cut and fill on a regular grid: the grid (borrow-pit) method.

Feet in (metres with ``metric=True``), cubic yards out; float64, vectorised (numpy).

References
----------
.. [1] Ghilani, C. D. and Wolf, P. R., *Elementary Surveying: An Introduction to Geomatics*,
   13th ed., Pearson, 2012, chapter 26 "Volumes": borrow-pit (unit-area) method.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import numpy as np

from treecalc.earthwork.quantities import CutFill, Earthwork, PlanAreas, check_finite_volumes, depth_ft, input_units
from treecalc.earthwork.tin import area_above

__all__ = ["GridVolumes", "grid_volumes", "GRID_NOTES"]


@dataclass(frozen=True)
class GridVolumes(CutFill):
    """Cut and fill by the grid (borrow-pit) method.

    ``cut_cy``, ``fill_cy`` are cubic yards (>= 0); ``net_cy = cut_cy - fill_cy`` (positive:
    surplus to export; negative: material to import). ``cell_cut_cy``/``cell_fill_cy`` are
    per-cell arrays of shape (ny - 1, nx - 1), rows along y ascending, columns along x.
    """

    cell_cut_cy: np.ndarray
    cell_fill_cy: np.ndarray
    dx: float
    dy: float
    nx: int
    ny: int
    mixed_cells: int
    units: str
    notes: list[str]
    node_depth: np.ndarray | None = field(default=None, repr=False)  # proposed - existing, (ny, nx), input units

    def earthwork(self) -> Earthwork:
        """Volumes and plan areas for a permit check (``measured=``).

        The areas cut or filled deeper than a depth come from the node depths, each cell split into
        two triangles with the depth linear on each (the volumes stay the borrow-pit ones).
        """
        u = input_units(self.units == "metres")
        k_len, k_area = u.ft, u.sq_ft
        # depths in feet at the survey's precision: exactly 4.00 ft is not "in excess of four feet"
        h = depth_ft(self.node_depth, k_len)
        a, b, c, d = h[:-1, :-1].ravel(), h[:-1, 1:].ravel(), h[1:, :-1].ravel(), h[1:, 1:].ravel()
        tris = np.concatenate([np.column_stack([a, b, d]), np.column_stack([a, d, c])])
        area = np.full(len(tris), self.dx * self.dy / 2)

        def over(g: np.ndarray, t: float) -> Decimal:
            return Decimal(repr(round(float(area_above(g - t, area).sum() * k_area), 6)))

        return Earthwork(
            cut_cuft=self._cuft(self.cut_cy),
            fill_cuft=self._cuft(self.fill_cy),
            cut=PlanAreas(lambda t: over(-tris, t)),
            fill=PlanAreas(lambda t: over(tris, t)),
            max_cut_ft=Decimal(repr(max(0.0, float((-h).max())))),
            method="grid (borrow-pit)",
        )

    def cut_fill_map(self, max_cells: int = 80) -> Any:
        """Net cut - fill per cell (cu yd; + cut, - fill), block-summed to at most ``max_cells`` per axis.

        A DataFrame with ``x``, ``y`` (block centres from the first node, input units) and ``net_cy``;
        its sum is ``net_cy`` of the result.
        """
        import pandas as pd  # heavy: pandas, loaded only when this runs

        net = np.asarray(self.cell_cut_cy, float) - np.asarray(self.cell_fill_cy, float)
        ny, nx = net.shape
        by, bx = max(1, -(-ny // max_cells)), max(1, -(-nx // max_cells))
        if by > 1 or bx > 1:
            pad = np.zeros((-(-ny // by) * by, -(-nx // bx) * bx))
            pad[:ny, :nx] = net
            net = pad.reshape(pad.shape[0] // by, by, pad.shape[1] // bx, bx).sum(axis=(1, 3))
        yy, xx = np.mgrid[0 : net.shape[0], 0 : net.shape[1]]
        return pd.DataFrame(
            {
                "x": np.round((xx.ravel() + 0.5) * bx * self.dx, 2),
                "y": np.round((yy.ravel() + 0.5) * by * self.dy, 2),
                "net_cy": net.ravel(),
            }
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            **self._totals("grid (borrow-pit)"),
            "nx": self.nx,
            "ny": self.ny,
            "dx": self.dx,
            "dy": self.dy,
            "cells": (self.nx - 1) * (self.ny - 1),
            "mixed_cells": self.mixed_cells,
            "units_in": self.units,
            "notes": list(self.notes),
        }


GRID_NOTES = [
    "Grid (borrow-pit) method: depth h = proposed - existing at each node (h > 0 fill, h < 0 "
    "cut). A cell with all four corners of one sign has volume = cell area x mean of the four "
    "corner depths.",
    "A cell whose corners change sign is split from the corner values (Ghilani & Wolf, "
    "Elementary Surveying, ch. 26): cut = A (sum of cut depths)^2 / (4 sum |h|), fill = A (sum "
    "of fill depths)^2 / (4 sum |h|); fill - cut then equals A x mean h.",
    "Volumes in cubic yards: cu ft / 27 (or m3 / 0.764554857984 with metric input).",
    "net_cy = cut_cy - fill_cy: positive is surplus material, negative is material to import "
    "(no shrink/swell factor applied).",
]


def _axis_spacing(coords: np.ndarray, name: str) -> float:
    if coords.size < 2:
        raise ValueError(f"grid needs at least 2 distinct {name} values, got {coords.size}")
    d = np.diff(coords)
    step = float(d.mean())
    if step <= 0 or not np.all(d > 0):
        raise ValueError(f"{name} coordinates must be strictly increasing")
    tol = 1e-6 * abs(step)
    if np.max(np.abs(d - step)) > tol:
        raise ValueError(f"grid is not regular: {name} spacing varies from {d.min():g} to {d.max():g}")
    return step


def _borrow_pit(h: np.ndarray, cell_area: float) -> tuple[np.ndarray, np.ndarray]:
    """Per-cell cut and fill volumes (cell_area units x h units) from node depths ``h`` (ny, nx)."""
    pos = np.maximum(h, 0.0)
    neg = np.maximum(-h, 0.0)
    P = pos[:-1, :-1] + pos[:-1, 1:] + pos[1:, :-1] + pos[1:, 1:]
    N = neg[:-1, :-1] + neg[:-1, 1:] + neg[1:, :-1] + neg[1:, 1:]
    S = P + N
    safe = np.where(S > 0, S, 1.0)
    k = cell_area / 4.0
    fill = k * P * P / safe
    cut = k * N * N / safe
    return cut, fill


def grid_volumes(x: Any, y: Any, existing: Any, proposed: Any, *, metric: bool = False) -> GridVolumes:
    """Cut and fill between two surfaces on a regular grid (grid / borrow-pit method).

    Parameters
    ----------
    x, y : array_like or float
        Either 1-D arrays of node coordinates, one per node, listing a complete regular grid in
        any order (with 1-D ``existing`` and ``proposed``), or — with 2-D ``existing`` and
        ``proposed`` of shape (ny, nx) — the node coordinates along each axis (lengths nx and
        ny, increasing, evenly spaced) or the spacings as scalars. Feet (metres if ``metric``).
    existing, proposed : array_like
        Existing and proposed elevations at the nodes, feet (metres if ``metric``).
    metric : bool
        Coordinates and elevations in metres; volumes are still returned in cubic yards.

    Returns
    -------
    GridVolumes
        ``cut_cy``, ``fill_cy`` (cubic yards, >= 0), ``net_cy = cut_cy - fill_cy`` and per-cell
        arrays. Vectorised: a 1,000 x 1,000 node grid takes a few tens of milliseconds.

    Raises
    ------
    ValueError
        Mismatched shapes, NaN, missing or duplicate nodes, a non-regular grid.

    Notes
    -----
    Each cell of area A = dx x dy has corner depths h = proposed - existing (h > 0 fill). With
    P the sum of the positive corner depths and N the sum of the magnitudes of the negative ones,
    fill = A P^2 / (4 (P + N)) and cut = A N^2 / (4 (P + N)). For a cell all in fill this is
    A P / 4 (the average of the four corners times the area), and for a cell that changes sign it
    is the standard split of the borrow-pit method for transition cells [1]_.

    References
    ----------
    .. [1] Ghilani, C. D. and Wolf, P. R., *Elementary Surveying*, 13th ed., 2012, ch. 26
       (borrow-pit / unit-area method).
    """
    E = np.asarray(existing, dtype=float)
    Pz = np.asarray(proposed, dtype=float)
    if E.shape != Pz.shape:
        raise ValueError(f"existing and proposed must have the same shape, got {E.shape} and {Pz.shape}")
    if E.ndim == 2:
        ny, nx = E.shape
        if ny < 2 or nx < 2:
            raise ValueError(f"grid needs at least 2 x 2 nodes, got {ny} x {nx}")
        dx = _spacing_arg(x, nx, "x")
        dy = _spacing_arg(y, ny, "y")
        Eg, Pg = E, Pz
    elif E.ndim == 1:
        X = np.asarray(x, dtype=float)
        Y = np.asarray(y, dtype=float)
        if X.shape != E.shape or Y.shape != E.shape:
            raise ValueError("x, y, existing and proposed must have the same length")
        if np.isnan(X).any() or np.isnan(Y).any():
            raise ValueError("x and y must not contain missing values")
        xs, ix = np.unique(X, return_inverse=True)
        ys, iy = np.unique(Y, return_inverse=True)
        nx, ny = xs.size, ys.size
        dx = _axis_spacing(xs, "x")
        dy = _axis_spacing(ys, "y")
        if X.size != nx * ny:
            raise ValueError(
                f"grid is not complete: {X.size} nodes given for {nx} x values x {ny} y values "
                f"= {nx * ny} nodes (missing or duplicate nodes)"
            )
        flat = iy * nx + ix
        if np.bincount(flat, minlength=nx * ny).max() > 1:
            raise ValueError("grid has duplicate nodes (the same x, y more than once)")
        Eg = np.empty(nx * ny)
        Pg = np.empty(nx * ny)
        Eg[flat] = E
        Pg[flat] = Pz
        Eg = Eg.reshape(ny, nx)
        Pg = Pg.reshape(ny, nx)
    else:
        raise ValueError(f"existing and proposed must be 1-D (with x, y per node) or 2-D grids, got {E.ndim}-D")
    if not (np.isfinite(Eg).all() and np.isfinite(Pg).all()):
        raise ValueError("existing and proposed elevations must not contain missing or infinite values")

    with np.errstate(over="ignore", invalid="ignore"):  # overflow is refused just below
        h = Pg - Eg
        cut, fill = _borrow_pit(h, dx * dy)
    factor = input_units(metric).cu_yd
    cut *= factor
    fill *= factor
    mixed = int(np.count_nonzero((cut > 0) & (fill > 0)))
    c, f = float(cut.sum()), float(fill.sum())
    check_finite_volumes(c, f)
    # cut and fill (cu yd), per cell, then the grid's spacing and size (the fields' order)
    return GridVolumes(
        c,
        f,
        cut,
        fill,
        float(dx),
        float(dy),
        int(nx),
        int(ny),
        mixed_cells=mixed,
        units=input_units(metric).name,
        notes=list(GRID_NOTES),
        node_depth=h,
    )


def _spacing_arg(v: Any, n: int, name: str) -> float:
    a = np.asarray(v, dtype=float)
    if a.ndim == 0:
        s = float(a)
        if not math.isfinite(s) or s <= 0:
            raise ValueError(f"{name} spacing must be positive, got {v!r}")
        return s
    if a.ndim != 1 or a.size != n:
        raise ValueError(f"{name} must be a spacing or {n} node coordinates, got shape {a.shape}")
    return _axis_spacing(a, name)
