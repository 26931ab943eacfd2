"""Cut and fill between cross-sections: the average-end-area method, with the prismoidal formula or correction.

Stations and areas in feet and square feet (metres with ``metric=True``), cubic yards out.

References
----------
.. [1] Ghilani, C. D. and Wolf, P. R., *Elementary Surveying: An Introduction to Geomatics*,
   13th ed., Pearson, 2012, chapter 26 "Volumes": average-end-area method, prismoidal formula
   and correction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from treecalc.earthwork.quantities import CutFill, Earthwork, check_finite_volumes, input_units

__all__ = ["EndAreaVolumes", "end_area_volumes", "parse_station", "PRISMOIDAL_NEEDS"]


@dataclass(frozen=True)
class EndAreaVolumes(CutFill):
    """Cut and fill between cross-sections by the average-end-area method (cubic yards).

    ``segment_cut_cy``/``segment_fill_cy`` hold one value per interval between stations;
    ``transitions`` the zero-area points inserted where a section changes from cut to fill.
    """

    stations: np.ndarray
    segment_cut_cy: np.ndarray
    segment_fill_cy: np.ndarray
    prismoidal: bool
    units: str
    notes: list[str]
    transitions: list[dict[str, float]] = field(default_factory=list)
    method: str = "average end area"

    def earthwork(self) -> Earthwork:
        """Volumes for a permit check (``measured=``); cross-sections give no plan areas (those rules may be
        unknown)."""
        return Earthwork(
            cut_cuft=self._cuft(self.cut_cy),
            fill_cuft=self._cuft(self.fill_cy),
            method=self.method,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            **self._totals(self.method),
            "stations": len(self.stations),
            "segments": [
                {"from": float(a), "to": float(b), "cut_cy": round(float(c), 2), "fill_cy": round(float(f), 2)}
                for a, b, c, f in zip(self.stations[:-1], self.stations[1:], self.segment_cut_cy, self.segment_fill_cy)
            ],
            "transitions": [dict(t) for t in self.transitions],
            "units_in": self.units,
            "notes": list(self.notes),
        }


def _station_notation(t: str) -> str | None:
    """'feet' for 12+50 (hundreds + feet), 'metric' for 1+000 (kilometres + metres), None for a number."""
    if "+" not in t[1:]:
        return None
    digits = t.lstrip("+-").partition("+")[2].split(".")[0]
    return "metric" if len(digits) == 3 else "feet"


def parse_station(s: Any, metric: bool | None = None) -> float:
    """A station as a distance: a number, '12+50' (feet: 1,250 ft) or '1+000' (metric: 1,000 m).

    With ``metric`` given, a station in the other notation is refused (feet notation puts two
    digits after the '+', metric three).
    """
    if isinstance(s, (int, float, np.integer, np.floating)) and not isinstance(s, bool):
        return float(s)
    t = str(s).strip()
    kind = _station_notation(t)
    if kind is not None and metric is not None and (kind == "metric") != metric:
        raise ValueError(
            f"station {s!r} is in {kind} notation ("
            + (
                "kilometres+metres): give ‹metric›"
                if kind == "metric"
                else "hundreds of feet+feet): with metric input give stations as 1+250 or in metres"
            )
            + ")"
        )
    try:
        if kind is not None:
            sign = -1.0 if t.startswith("-") else 1.0
            big, _, rest = t.lstrip("+-").partition("+")
            return sign * (float(big) * (1000 if kind == "metric" else 100) + float(rest))
        return float(t)
    except ValueError:
        raise ValueError(f"station {s!r} is not a number or a 12+50 / 1+000 station") from None


def _as_array(a: Any, n: int, name: str) -> np.ndarray | None:
    if a is None:
        return None
    v = np.asarray(a, dtype=float)
    if v.shape != (n,):
        raise ValueError(f"{name} must have one value per station ({n})")
    return v


def _check_sections(st: np.ndarray, ca: np.ndarray, fa: np.ndarray) -> np.ndarray:
    if ca.shape != st.shape or fa.shape != st.shape:
        raise ValueError("stations, cut_area and fill_area must have the same length")
    if st.size < 2:
        raise ValueError("at least two cross-sections are needed")
    for name, a in (("station", st), ("cut_area", ca), ("fill_area", fa)):
        if not np.isfinite(a).all():
            raise ValueError(f"{name} must not contain missing or infinite values")
    if (ca < 0).any() or (fa < 0).any():
        raise ValueError("cut_area and fill_area must not be negative (give cut and fill as positive areas)")
    L = np.diff(st)
    if (L <= 0).any():
        i = int(np.flatnonzero(L <= 0)[0])
        raise ValueError(f"stations must be strictly increasing: {st[i]:g} is followed by {st[i + 1]:g}")
    return L


def _transitions(st: np.ndarray, L: np.ndarray, ca: np.ndarray, fa: np.ndarray) -> tuple[np.ndarray, list[dict]]:
    """Intervals from an all-cut to an all-fill section (or back) and their zero-area (grade) points.

    The grade point is where the signed area (cut - fill), linear between the sections, is zero:
    at L A1 / (A1 + A2) from the first station.
    """
    a1c, a2c, a1f, a2f = ca[:-1], ca[1:], fa[:-1], fa[1:]
    to_fill = (a1c > 0) & (a1f == 0) & (a2c == 0) & (a2f > 0)
    to_cut = (a1f > 0) & (a1c == 0) & (a2f == 0) & (a2c > 0)
    trans = to_fill | to_cut
    first = np.where(to_fill, a1c, a1f)
    second = np.where(to_fill, a2f, a2c)
    with np.errstate(invalid="ignore", divide="ignore"):
        x0 = np.where(trans, L * first / (first + second), 0.0)
    out = [
        {
            "from": float(st[i]),
            "to": float(st[i + 1]),
            "grade_point": float(st[i] + x0[i]),
            "kind": "cut to fill" if to_fill[i] else "fill to cut",
        }
        for i in np.flatnonzero(trans)
    ]
    return x0, out


def _segment_volumes(
    L: np.ndarray, a: np.ndarray, other: np.ndarray, x0: np.ndarray, trans: np.ndarray, mid: np.ndarray | None
) -> np.ndarray:
    """One kind (cut or fill) per interval: end area, to the grade point, or prismoidal with mid-areas."""
    if mid is not None:
        return L * (a[:-1] + 4 * mid[:-1] + a[1:]) / 6.0  # prismoidal formula V = L/6 (A1 + 4 Am + A2)
    v = L * (a[:-1] + a[1:]) / 2.0
    # transition: this kind is non-zero at one end only; it runs from that end to the grade point
    near = np.where(a[:-1] > 0, x0, L - x0)
    return np.where(trans, near * (a[:-1] + a[1:]) / 2.0, v)


def _three_level_correction(L: np.ndarray, c: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Prismoidal correction C = L (c1 - c2)(D1 - D2) / 12 per interval, applied to cut (c >= 0) or fill (c <= 0)."""
    corr = L * (np.abs(c[:-1]) - np.abs(c[1:])) * (w[:-1] - w[1:]) / 12.0
    cut_side = (c[:-1] >= 0) & (c[1:] >= 0)
    fill_side = (c[:-1] <= 0) & (c[1:] <= 0)
    return np.where(cut_side, corr, 0.0), np.where(fill_side & ~cut_side, corr, 0.0)


def _check_correction(st: np.ndarray, volume: np.ndarray, corr: np.ndarray, kind: str, unit: str) -> None:
    """A prismoidal correction larger than the end-area volume it corrects is refused, naming the interval: the
    centre heights and widths do not describe those areas (the volume was clamped to 0 without a word)."""
    over = corr > volume * (1 + 1e-9) + 1e-9
    if over.any():
        i = int(np.flatnonzero(over)[0])
        raise ValueError(
            f"the prismoidal correction of the {kind} between stations {st[i]:g} and {st[i + 1]:g} "
            f"({corr[i]:,.2f} {unit}) is larger than its end-area volume ({volume[i]:,.2f} {unit}): the center_height "
            "and width columns do not describe these areas; check them, or leave out ‹prismoidal›"
        )


PRISMOIDAL_NEEDS = (
    "‹prismoidal› needs mid-section areas (columns cut_mid_area, fill_mid_area: the areas halfway to "
    "the next station) or centre heights and widths (columns center_height, + cut / - fill, and "
    "width between slope stakes) for the correction C = L (c1 - c2)(D1 - D2) / 12"
)


def end_area_volumes(
    stations: Any,
    cut_area: Any,
    fill_area: Any,
    prismoidal: bool = False,
    *,
    metric: bool = False,
    cut_mid_area: Any = None,
    fill_mid_area: Any = None,
    center_height: Any = None,
    width: Any = None,
) -> EndAreaVolumes:
    """Cut and fill by the average-end-area method, optionally prismoidal.

    Parameters
    ----------
    stations : array_like
        Station of each cross-section, feet along the alignment (metres if ``metric``), strictly
        increasing; numbers, '12+50' (feet) or '1+000' (metric) strings.
    cut_area, fill_area : array_like
        Cut and fill area of each cross-section, square feet (square metres if ``metric``).
    prismoidal : bool
        Prismoidal volumes: with ``cut_mid_area``/``fill_mid_area`` (the areas halfway to the next
        station) V = L/6 (A1 + 4 Am + A2); with ``center_height`` and ``width`` (three-level
        sections) the end-area volume less the correction L (c1 - c2)(D1 - D2) / 12. One of them
        is required: without it the correction cannot be computed.
    metric : bool
        Input in metres / square metres; output still in cubic yards.

    Returns
    -------
    EndAreaVolumes
        ``cut_cy``, ``fill_cy``, ``net_cy = cut_cy - fill_cy``, per-segment volumes and the
        zero-area grade points inserted where a section changes from cut to fill.

    Notes
    -----
    Average end area: V = L (A1 + A2) / 2 per interval of length L [1]_. Between an all-cut and an
    all-fill section the cut runs from its section to the grade point (where the signed area is
    zero, at L A1 / (A1 + A2)) and the fill from there: each volume is a wedge to a zero area.
    A wedge from 0 to 100 sq ft over 100 ft is 5,000 cu ft = 185.19 cu yd, exactly what the end-area
    and prismoidal formulas give for areas that change linearly.

    References
    ----------
    .. [1] Ghilani, C. D. and Wolf, P. R., *Elementary Surveying*, 13th ed., 2012, ch. 26
       (average-end-area formula, prismoidal formula and correction).
    """
    try:
        st = np.array(
            [parse_station(s, metric) for s in np.atleast_1d(np.asarray(stations, dtype=object))], dtype=float
        )
    except TypeError:
        raise ValueError("stations must be a sequence") from None
    ca, fa = np.asarray(cut_area, dtype=float), np.asarray(fill_area, dtype=float)
    L = _check_sections(st, ca, fa)
    n = st.size
    cm, fm = _as_array(cut_mid_area, n, "cut_mid_area"), _as_array(fill_mid_area, n, "fill_mid_area")
    ch, wd = _as_array(center_height, n, "center_height"), _as_array(width, n, "width")
    for name, a in (("center_height", ch), ("width", wd)):
        if prismoidal and a is not None and not np.isfinite(a).all():
            raise ValueError(f"{name} must be given (a finite number) for every station")
    if prismoidal and wd is not None and (wd < 0).any():
        i = int(np.flatnonzero(wd < 0)[0])
        raise ValueError(f"width must not be negative (the width between slope stakes): {wd[i]:g} at station {st[i]:g}")
    use_mid = prismoidal and cm is not None and fm is not None
    use_corr = prismoidal and not use_mid and ch is not None and wd is not None
    if prismoidal and not (use_mid or use_corr):
        raise ValueError(PRISMOIDAL_NEEDS)
    if (
        use_mid
        and cm is not None
        and fm is not None
        and (
            not np.isfinite(cm[:-1]).all()
            or not np.isfinite(fm[:-1]).all()
            or (cm[:-1] < 0).any()
            or (fm[:-1] < 0).any()
        )
    ):
        raise ValueError(
            "cut_mid_area and fill_mid_area must be given (>= 0) for every interval (all rows but the last)"
        )
    # overflow of absurd inputs is caught by check_finite_volumes (a message, not numpy warnings)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        x0, trans_list = _transitions(st, L, ca, fa) if not use_mid else (np.zeros_like(L), [])
        trans = np.zeros(L.shape, bool) if use_mid else np.isin(st[:-1], [t["from"] for t in trans_list])
        sc = _segment_volumes(L, ca, fa, x0, trans, cm if use_mid else None)
        sf = _segment_volumes(L, fa, ca, x0, trans, fm if use_mid else None)
        if use_corr and ch is not None and wd is not None:
            cc, cf = _three_level_correction(L, ch, wd)
            _check_correction(st, sc, cc, "cut", "m³" if metric else "cu ft")
            _check_correction(st, sf, cf, "fill", "m³" if metric else "cu ft")
            sc, sf = sc - cc, sf - cf
        factor = input_units(metric).cu_yd
        sc, sf = np.maximum(sc, 0.0) * factor, np.maximum(sf, 0.0) * factor
        c, f = float(sc.sum()), float(sf.sum())
    check_finite_volumes(c, f)
    method = (
        "prismoidal formula (mid-section areas)"
        if use_mid
        else "average end area with prismoidal correction (three-level)"
        if use_corr
        else "average end area"
    )
    return EndAreaVolumes(
        cut_cy=c,
        fill_cy=f,
        stations=st,
        segment_cut_cy=sc,
        segment_fill_cy=sf,
        prismoidal=bool(prismoidal),
        units=input_units(metric).name,
        notes=_end_area_notes(use_mid, use_corr, trans_list, metric),
        transitions=trans_list,
        method=method,
    )


def _end_area_notes(use_mid: bool, use_corr: bool, trans: list[dict], metric: bool) -> list[str]:
    u = "m" if metric else "ft"
    ref = "(Ghilani & Wolf, Elementary Surveying, ch. 26)"
    notes: list[str] = []
    # a prismoidal result opens with its own formula: the average end area is only its base (or not used)
    if use_mid:
        notes.append(f"Prismoidal formula with the mid-section areas given: V = L/6 (A1 + 4 Am + A2) {ref}.")
    if use_corr:
        notes.append(
            "Prismoidal correction for three-level sections: C = L (c1 - c2)(D1 - D2) / 12 (c centre "
            "height, D width between slope stakes) subtracted from the end-area volume L (A1 + A2) / 2 "
            f"{ref}."
        )
    if not (use_mid or use_corr):
        notes.append(f"Average-end-area method: V = L (A1 + A2) / 2 between consecutive stations {ref}.")
    notes.append("net_cy = cut_cy - fill_cy: positive is surplus material, negative is material to import.")
    for t in trans:
        notes.append(
            f"section changes {t['kind']} between stations {t['from']:g} and {t['to']:g} {u}: a zero-area "
            f"point is inserted at the grade line, station {t['grade_point']:.2f} {u}; each side is a "
            "wedge to that point."
        )
    return notes
