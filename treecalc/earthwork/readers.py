"""The earthwork methods' inputs read from files and frames: point CSVs and LandXML surfaces (for the TIN), grid
CSVs and cross-section CSVs, with the surveyor's headers mapped. Each file is parsed in the bounded child of
:mod:`treecalc.ingest.isolated`; bad input is a ValueError naming the file, row and column.

References
----------
.. [1] LandXML 1.2 schema, ``Surface/Definition/Pnts/P`` ("northing easting elevation").
"""

from __future__ import annotations

from collections.abc import Sequence
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np

from treecalc.earthwork.end_area import EndAreaVolumes, end_area_volumes, parse_station
from treecalc.earthwork.grid import GridVolumes, grid_volumes
from treecalc.earthwork.tin import TinVolumes, _clean_points, tin_volumes
from treecalc.files import read_limited
from treecalc.ingest import isolated
from treecalc.ingest.isolated import read_csv_table

__all__ = [
    "find_columns",
    "read_points",
    "volume_between_files",
    "grid_volumes_from_frame",
    "volume_from_grid_csv",
    "end_area_volumes_from_frame",
    "volume_from_sections_csv",
]

_X = ("easting", "east", "x", "pointx", "e")
_Y = ("northing", "north", "y", "pointy", "n")
_Z_EXISTING = ("eg", "existing", "existingelevation", "existinggrade", "ground", "elevation", "elev", "z", "height")
_Z_PROPOSED = ("fg", "proposed", "proposedelevation", "finishedgrade", "design", "elevation", "elev", "z", "height")
_EG_NAMES = ("eg", "exist", "ground", "original", "og")
_FG_NAMES = ("fg", "prop", "design", "finish", "final")


def _key(c: Any) -> str:
    """A header reduced to letters and digits before any '(unit)': 'Elevation (ft)' -> 'elevation'."""
    return "".join(ch for ch in str(c).split("(")[0].lower() if ch.isalnum())


def find_columns(columns: Any, role: str = "existing") -> dict[str, Any]:
    """The x, y and z columns among ``columns`` for a surface of ``role`` ('existing' or 'proposed').

    Raises ValueError naming what is missing and the headers found.
    """
    keys = {_key(c): c for c in columns}
    out = {}
    for axis, names in (("x", _X), ("y", _Y), ("z", _Z_EXISTING if role == "existing" else _Z_PROPOSED)):
        hit = next((keys[n] for n in names if n in keys), None)
        if hit is None:
            raise ValueError(
                f"no {axis} column for the {role} surface (looked for {', '.join(names[:5])}; found: "
                f"{', '.join(map(str, columns)) or 'none'})"
            )
        out[axis] = hit
    return out


def _points_from_csv(path: Path, role: str) -> np.ndarray:
    import pandas as pd  # heavy: pandas, loaded only when this runs

    df = read_csv_table(path, f"{role} surface")
    cols = find_columns(df.columns, role)
    out = np.empty((len(df), 3))
    for j, axis in enumerate("xyz"):
        s = pd.to_numeric(df[cols[axis]], errors="coerce")
        bad = s.isna().to_numpy()
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ValueError(
                f"{path.name}: row {int(df.index[i]) + 2} column {cols[axis]!r} is not a number: "
                f"{df[cols[axis]].iloc[i]!r}"
            )
        out[:, j] = s.to_numpy(dtype=float)
    return out


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


_FEET_UNITS = ("foot", "ussurveyfoot", "internationalfoot", "feet", "usfoot")
_METRE_UNITS = ("meter", "metre", "meters", "metres")


def _landxml_units(root: Any, fname: str) -> str | None:
    """'feet' or 'metres' as declared by ``<Units><Metric|Imperial linearUnit=...>``; None if not declared.

    A declared unit other than feet or metres (millimetres, inches, ...) is refused, not misread.
    """
    for el in root.iter():
        if _local(el.tag) in ("Metric", "Imperial") and el.get("linearUnit"):
            unit = el.get("linearUnit", "")
            key = unit.strip().lower().replace(" ", "")
            if key in _FEET_UNITS:
                return "feet"
            if key in _METRE_UNITS:
                return "metres"
            raise ValueError(
                f"{fname}: the LandXML file declares linearUnit={unit!r}; only feet and metres are "
                "read (convert the file to feet, or to metres and pass ‹metric›)"
            )
    return None


def _points_from_landxml(
    path: Path, surface: str | None, role: str, metric: bool | None = None, data: bytes | None = None
) -> np.ndarray:
    from defusedxml import ElementTree as ET  # heavy: defusedxml, loaded only when this runs
    from defusedxml.common import DefusedXmlException  # heavy: defusedxml, loaded only when this runs

    try:
        root = ET.fromstring(read_limited(path, f"{role} surface") if data is None else data)
    except (ET.ParseError, DefusedXmlException) as e:
        raise ValueError(f"{path.name}: not a readable LandXML file: {e}") from None
    if root is None:
        raise ValueError(f"{path.name}: not a readable LandXML file: no root element")
    declared = _landxml_units(root, path.name)
    if metric is not None and declared is not None and (declared == "metres") != metric:
        raise ValueError(
            f"{path.name}: the LandXML file declares its units in {declared}, but the volumes were asked "
            f"in {'metres (‹metric›)' if metric else 'feet'}: "
            + ("pass ‹metric›" if declared == "metres" else "leave out ‹metric›")
        )
    surfaces = [el for el in root.iter() if _local(el.tag) == "Surface"]
    if not surfaces:
        raise ValueError(f"{path.name}: no <Surface> in the LandXML file")
    names = [s.get("name") or f"surface {i + 1}" for i, s in enumerate(surfaces)]
    pick = _pick_surface(names, surface, role, path.name)
    rows = []
    for p in surfaces[pick].iter():
        if _local(p.tag) != "P":
            continue
        bits = (p.text or "").split()
        try:
            north, east, z = (float(b) for b in bits[:3])
        except ValueError:
            raise ValueError(
                f"{path.name}: point {p.get('id', '?')} of {names[pick]!r} is not 'northing easting "
                f"elevation': {p.text!r}"
            ) from None
        rows.append((east, north, z))  # LandXML lists northing first
    if not rows:
        raise ValueError(f"{path.name}: surface {names[pick]!r} has no points (<Pnts><P>)")
    return np.asarray(rows, dtype=float)


def _pick_surface(names: list[str], surface: str | None, role: str, fname: str) -> int:
    if surface is not None:
        if surface not in names:
            raise ValueError(f"{fname}: no surface named {surface!r} (surfaces: {', '.join(names)})")
        return names.index(surface)
    if len(names) == 1:
        return 0
    hints = _EG_NAMES if role == "existing" else _FG_NAMES
    hits = [i for i, n in enumerate(names) if any(h in n.lower() for h in hints)]
    if len(hits) == 1:
        return hits[0]
    raise ValueError(f"{fname} has several surfaces ({', '.join(names)}): name one as FILE#SURFACE")


def read_points(source: str | PathLike[str], role: str = "existing", metric: bool | None = None) -> np.ndarray:
    """Points (n, 3) of x, y, z from a CSV or LandXML file (``path#SurfaceName`` picks a surface).

    With ``metric`` given (False: feet, True: metres), a LandXML file that declares other units in
    ``<Units>`` is refused rather than misread. Raises ValueError naming the file and the row or
    element at fault. The file is parsed in the bounded child of :mod:`treecalc.ingest.isolated`.
    """
    return isolated.run(_read_points, source, role, metric, what=f"{role} surface file {Path(str(source)).name}")


def _read_points(source: str | PathLike[str], role: str = "existing", metric: bool | None = None) -> np.ndarray:
    text = str(source)
    surface = None
    path = Path(text)
    if not path.exists() and "#" in text:
        text, surface = text.rsplit("#", 1)
        path = Path(text)
    if not path.exists():
        raise ValueError(f"{role} surface file not found: {text}")

    data = read_limited(path, f"{role} surface")  # by type and size before anything is read
    head = data[:512].lstrip()
    is_xml = path.suffix.lower() == ".xml" or head.startswith((b"<", b"\xef\xbb\xbf<"))
    pts = _points_from_landxml(path, surface, role, metric, data) if is_xml else _points_from_csv(path, role)
    return _clean_points(pts, f"{path.name} ({role})")


def volume_between_files(
    existing: str | PathLike[str],
    proposed: str | PathLike[str],
    *,
    metric: bool = False,
    depths_ft: Sequence[float] = (),
) -> TinVolumes:
    """:func:`tin_volumes` from two files, each a point CSV or a LandXML surface (``FILE#NAME``); ``depths_ft``
    as :func:`tin_volumes` takes them."""
    return tin_volumes(
        read_points(existing, "existing", metric),
        read_points(proposed, "proposed", metric),
        metric=metric,
        depths_ft=depths_ft,
    )


def _columns(df: Any, required: Sequence[str], what: str) -> Any:
    import pandas as pd  # heavy: pandas, loaded only when this runs

    if not isinstance(df, pd.DataFrame):
        raise ValueError(f"{what}: expected a DataFrame")
    df = df.rename(columns={c: str(c).strip().lower() for c in df.columns})
    missing = [c for c in required if c not in df.columns]
    if missing:
        raise ValueError(
            f"{what}: missing column(s) {', '.join(repr(m) for m in missing)} "
            f"(found: {', '.join(map(str, df.columns)) or 'none'})"
        )
    if len(df) == 0:
        raise ValueError(f"{what}: no rows")
    return df


def _line(df: Any, pos: int) -> Any:
    """The file row of position ``pos`` (header = row 1); frames from :func:`read_csv_table` skip blank lines."""
    idx = df.index[pos]
    return idx + 2 if isinstance(idx, (int, np.integer)) else pos + 2


def _numeric_column(df: Any, col: str, what: str) -> np.ndarray:
    import pandas as pd  # heavy: pandas, loaded only when this runs

    s = pd.to_numeric(df[col], errors="coerce")
    bad = s.isna()
    if bad.any():
        row = int(np.flatnonzero(bad.to_numpy())[0])
        raise ValueError(f"{what}: column {col!r} row {_line(df, row)} is not a number: {df[col].iloc[row]!r}")
    return s.to_numpy(dtype=float)


def _map_grid_headers(df: Any) -> Any:
    """Surveyor headers mapped to the grid's columns: Easting/Northing -> x/y, EG/FG -> existing/proposed."""
    names = {str(c).strip().lower() for c in df.columns}
    if {"x", "y", "existing", "proposed"} <= names:
        return df
    try:
        e = find_columns(df.columns, "existing")
        p = find_columns(df.columns, "proposed")
    except ValueError:
        return df  # _columns names what is missing
    if e["z"] == p["z"]:
        return df
    return df.rename(columns={e["x"]: "x", e["y"]: "y", e["z"]: "existing", p["z"]: "proposed"})


def grid_volumes_from_frame(df: Any, *, metric: bool = False) -> GridVolumes:
    """:func:`grid_volumes` from a DataFrame with columns ``x``, ``y``, ``existing``, ``proposed``.

    Surveyor headers are mapped: Easting/Northing (E/N, POINT_X/POINT_Y) for x/y and EG/FG
    (existing/proposed grade) for the elevations.
    """
    what = "grid"
    df = _columns(_map_grid_headers(df), ["x", "y", "existing", "proposed"], what)
    cols = {c: _numeric_column(df, c, what) for c in ("x", "y", "existing", "proposed")}
    return grid_volumes(cols["x"], cols["y"], cols["existing"], cols["proposed"], metric=metric)


def _read_csv(path: str | PathLike[str], what: str) -> Any:
    return read_csv_table(path, what)


def volume_from_grid_csv(path: str | PathLike[str], *, metric: bool = False) -> GridVolumes:
    """:func:`grid_volumes` from a CSV with columns ``x``, ``y``, ``existing``, ``proposed``.

    Feet and regular spacing (metres with ``metric=True``); cubic yards out.
    """
    return grid_volumes_from_frame(_read_csv(path, "grid"), metric=metric)


def end_area_volumes_from_frame(df: Any, prismoidal: bool = False, *, metric: bool = False) -> EndAreaVolumes:
    """:func:`end_area_volumes` from a DataFrame with columns ``station``, ``cut_area``, ``fill_area``.

    Optional columns for ``prismoidal``: ``cut_mid_area``, ``fill_mid_area`` or ``center_height``,
    ``width``.
    """
    import pandas as pd  # heavy: pandas, loaded only when this runs

    what = "sections"
    df = _columns(df, ["station", "cut_area", "fill_area"], what)
    st = [parse_station(s, metric) for s in df["station"]]

    def opt(col: str, all_rows: bool = True) -> np.ndarray | None:
        if col not in df.columns:
            return None
        rows = df[col] if all_rows else df[col].iloc[:-1]
        if not all_rows:
            v = pd.to_numeric(df[col], errors="coerce").to_numpy(dtype=float)
            if np.isnan(v[:-1]).any():
                i = int(np.flatnonzero(np.isnan(v[:-1]))[0])
                raise ValueError(f"{what}: column {col!r} row {_line(df, i)} is not a number: {rows.iloc[i]!r}")
            return v
        return _numeric_column(df, col, what)

    return end_area_volumes(
        st,
        _numeric_column(df, "cut_area", what),
        _numeric_column(df, "fill_area", what),
        prismoidal,
        metric=metric,
        cut_mid_area=opt("cut_mid_area", False),
        fill_mid_area=opt("fill_mid_area", False),
        center_height=opt("center_height"),
        width=opt("width"),
    )


def volume_from_sections_csv(
    path: str | PathLike[str], prismoidal: bool = False, *, metric: bool = False
) -> EndAreaVolumes:
    """:func:`end_area_volumes` from a CSV with columns ``station``, ``cut_area``, ``fill_area``.

    Stations in feet (numbers or '12+50') or metres ('1+000' with ``metric``), areas in square feet
    (m2 with ``metric``); optional prismoidal columns as in :func:`end_area_volumes_from_frame`.
    """
    return end_area_volumes_from_frame(_read_csv(path, "sections"), prismoidal, metric=metric)
