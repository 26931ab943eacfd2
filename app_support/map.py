"""The tree map: the assessment's trees placed by their coordinates, coloured by a column, no basemap.

Drawn with pydeck (``st.pydeck_chart``) in an orthographic view of east/north metres, so that no
map tiles or style are fetched: the trees show without a network. Coordinates come from
:func:`treecalc.geo.tree_lonlat` (latitude/longitude, or x/y with the site fact ``crs``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

#: Okabe & Ito (2008) colour-blind-safe palette (RGB), then greys for "none"/"unknown"
PALETTE = [
    (0, 114, 178),
    (230, 159, 0),
    (0, 158, 115),
    (204, 121, 167),
    (86, 180, 233),
    (213, 94, 0),
    (240, 228, 66),
    (0, 0, 0),
]
NONE_COLOUR = (170, 170, 170)

#: what the trees can be coloured by: label -> column of the assessment's trees
COLOUR_BY = {"Action": "action", "Offence (§208-29)": "offence", "Penalty tier": "penalty_tier"}


def _category(s: pd.Series, column: str) -> pd.Series:
    if column == "offence":
        return s.map(
            lambda v: (
                "offence"
                if v is True or v == 1
                else ("no offence" if v is False or v == 0 else (str(v) if isinstance(v, str) and v else "none"))
            )
        )
    if column == "offence_status":  # issue 9: definite / conditional offences; a tree with neither has none
        return s.map(lambda v: f"{v} offence" if isinstance(v, str) and v else "no offence")
    return s.map(lambda v: "none" if v is None or (isinstance(v, float) and np.isnan(v)) or v == "" else str(v))


#: Categories that keep their colour (a PALETTE index) whatever else a survey holds: a tier or an action
#: is the same colour on every survey's map. The more serious, the warmer.
FIXED_COLOURS = {
    "remove": 0,
    "removed": 1,
    "topped": 5,
    "excessively_pruned": 3,
    "damaged": 6,
    "transplant": 2,
    "offence": 5,
    "definite offence": 5,
    "conditional offence": 1,
    "§208-29B(1)": 4,
    "§208-29B(2)": 0,
    "§208-29B(3)": 2,
    "§208-29B(4)": 1,
    "§208-29B(5)": 3,
    "§208-29B(6)": 5,
}
GREY_CATEGORIES = ("none", "no offence", "retain")


def colour_table(categories: pd.Series) -> dict[str, tuple[int, int, int]]:
    """A colour per category: fixed for the known ones (:data:`FIXED_COLOURS`), grey for 'none'/'no
    offence'/'retain', and the palette's unused colours for any other, in the order of their names."""
    cats = sorted(set(categories.astype(str)))
    out = {c: NONE_COLOUR for c in cats if c in GREY_CATEGORIES}
    out.update({c: PALETTE[FIXED_COLOURS[c]] for c in cats if c in FIXED_COLOURS and c not in out})
    free = [p for p in PALETTE if p not in out.values()] or PALETTE
    others = [c for c in cats if c not in out]
    out.update({c: free[i % len(free)] for i, c in enumerate(others)})
    return out


def points(
    trees: pd.DataFrame, site: Mapping[str, Any] | None, colour_by: str = "action", value_unit: str = ""
) -> tuple[pd.DataFrame, int]:
    """The trees that have coordinates, with east/north metres, a colour and hover text; and how many had none.

    ``value_unit`` follows each value in the hover text ('/yr' on the annual value basis).

    Returns an empty frame when the survey has no coordinate columns (see :func:`treecalc.geo.tree_lonlat`).
    """
    from treecalc.geo import local_metres, tree_lonlat

    ll = tree_lonlat(trees, site)
    if ll is None:
        return pd.DataFrame(), 0
    ok = ll["latitude_deg"].notna()
    t, ll = trees.loc[ok], ll.loc[ok]
    if t.empty:
        return pd.DataFrame(), int((~ok).sum())
    east, north = local_metres(ll["longitude_deg"].to_numpy(), ll["latitude_deg"].to_numpy())
    col = colour_by if colour_by in t else None
    if colour_by == "offence" and "offence_status" in t:  # issue 9: definite / conditional, when given
        col = "offence_status"
    cat = _category(t[col], col) if col else pd.Series("none", index=t.index)
    colours = colour_table(cat)
    dbh = pd.to_numeric(t.get("dbh_in"), errors="coerce") if "dbh_in" in t else pd.Series(np.nan, index=t.index)
    value = pd.to_numeric(t["value_usd"], errors="coerce") if "value_usd" in t else pd.Series(np.nan, index=t.index)
    dead = t["dead"].fillna(False).to_numpy(bool) if "dead" in t else np.zeros(len(t), dtype=bool)
    df = pd.DataFrame(
        {
            "east_m": east,
            "north_m": north,
            "tag": t["tag"].astype(str).to_numpy() if "tag" in t else "",
            "species": (
                t["species"].astype(str) + (" (" + t["species_code"].astype(str) + ")" if "species_code" in t else "")
            ).to_numpy()
            if "species" in t
            else "",
            "dbh": [("—" if np.isnan(v) else f"{v:g} in") for v in dbh.to_numpy(float)],
            "value": [
                ("—" if np.isnan(v) else f"${v:,.2f}{value_unit}") + (" (dead: no environmental value)" if d else "")
                for v, d in zip(value.to_numpy(float), dead)
            ],
            "dead": dead,
            "category": cat.to_numpy(),
            "latitude_deg": ll["latitude_deg"].to_numpy(),
            "longitude_deg": ll["longitude_deg"].to_numpy(),
        }
    )
    df["color"] = [list(colours[c]) for c in df["category"]]
    # drawn size only (not a crown model): 0.25 m per inch of DBH, 1.5-8 m, 6 in when DBH is not given
    df["radius_m"] = np.clip(np.nan_to_num(dbh.to_numpy(float), nan=6.0) * 0.25, 1.5, 8.0)
    # drawn in row order: the grey trees first, so that those the law speaks of are never covered by them
    grey = df["color"].map(lambda c: tuple(c) == NONE_COLOUR).to_numpy()
    return df.iloc[np.argsort(~grey, kind="stable")].reset_index(drop=True), int((~ok).sum())


def deck(df: pd.DataFrame, colour_label: str = "Action") -> Any:
    """A pydeck Deck of the points in an orthographic east/north view: no basemap, no network."""
    import pydeck as pdk

    data = df[["east_m", "north_m", "tag", "species", "dbh", "value", "category", "color", "radius_m"]]
    layer = pdk.Layer(
        "ScatterplotLayer",
        id="trees",
        data=data,
        get_position=["east_m", "north_m"],
        get_fill_color="color",
        get_radius="radius_m",
        radius_units="meters",
        radius_min_pixels=5,
        stroked=True,
        get_line_color=[40, 40, 40],
        line_width_units="pixels",
        get_line_width=1,
        pickable=True,
    )
    span = float(max(np.ptp(df["east_m"]), np.ptp(df["north_m"]), 10.0))
    zoom = float(np.log2(500.0 / (span * 1.2)))  # ~500 px across the trees
    view = pdk.View(type="OrthographicView", controller=True, flip_y=False)
    state = pdk.ViewState(target=[0, 0, 0], zoom=zoom, min_zoom=zoom - 4, max_zoom=zoom + 8)
    tip = {
        "html": "<b>Tree {tag}</b><br/>{species}<br/>DBH {dbh}<br/>Value {value}<br/>"
        f"{colour_label}: {{category}}",
        "style": {"fontSize": "13px"},
    }
    return pdk.Deck(
        layers=[layer], views=[view], initial_view_state=state, map_provider=None, map_style=None, tooltip=tip
    )


def legend(df: pd.DataFrame) -> pd.DataFrame:
    """The colour key with the count of trees per category (also the map's text alternative)."""
    g = df.groupby("category", sort=False).agg(trees=("tag", "size"), color=("color", "first")).reset_index()
    g["colour"] = [f"#{c[0]:02x}{c[1]:02x}{c[2]:02x}" for c in g["color"]]
    return g.drop(columns="color").sort_values("trees", ascending=False)
