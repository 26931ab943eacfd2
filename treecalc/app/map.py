"""The tree map: the assessment's trees placed by their coordinates, coloured by a column, no basemap.

Drawn with pydeck (``st.pydeck_chart``) in an orthographic view of east/north metres, so that no
map tiles or style are fetched: the trees show without a network. Coordinates come from
:func:`treecalc.reference.geo.tree_lonlat` (latitude/longitude, or x/y with the site fact ``crs``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from treecalc.law import cites
from treecalc.law.registry import get_or_default, with_section
from treecalc.quantities import M_PER_FT
from treecalc.reference.geo import local_metres, tree_lonlat

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


def colour_choices(jurisdiction: str) -> dict[str, str]:
    """What the trees can be coloured by, labelled in the words of the law the survey is assessed under: a law
    fining the trees removed (no replacement, no penalty tiers: Chapter 95) its offences and fines."""
    rec = get_or_default(jurisdiction)
    if "replacement" in rec.sections:
        offence = cites.head(cites.cite(_cited(rec.key), "criminal.per_tree_usd", dt.date.today()))
        return {"Action": "action", f"Offence ({offence})": "offence", "Penalty tier": "penalty_tier"}
    return {
        "Action": "action",
        f"Offence (Chapter {rec.chapter.split(' Chapter ')[-1]})": "offence",
        "Fine": "penalty_tier",
    }


#: A category in words for the legend and the hover text (an action, an offence)
CATEGORY_WORDS = {
    "remove": "proposed for removal",
    "removed": "removed",
    "retain": "kept",
    "damaged": "damaged",
    "topped": "topped",
    "excessively_pruned": "excessively pruned",
    "transplant": "transplanted",
    "offence": "offence: harmed without a required permit",
    "no offence": "no offence",
    "definite offence": "offence on the facts given",
    "conditional offence": "offence only if an assumed fact holds",
    "none": "none",
}


def _cited(village: str) -> dict[str, str]:
    """The sections ``village``'s law cites, in force today (the date the app assesses on)."""
    return cites.sections(village, dt.date.today())


def _tier_sections() -> dict[int, str]:
    """Each civil penalty tier of the law with tiers, by its number: the section its row cites."""
    held = _cited(with_section("civil_penalty")[0].key)
    return {n: held[f"penalty.civil_tiers[{n}]"] for n in TIER_COLOURS}


def tier_words() -> dict[str, str]:
    """Chapter 208's civil penalty tiers in words, by the section each row cites, their figures read from the law's
    data."""
    from treecalc.app.views import law_today  # optional dependency: streamlit ([app] extra)

    # the law with civil penalty tiers, in force today (the date the app assesses on)
    p = law_today(with_section("civil_penalty")[0].key)["penalty"]
    t1, t2 = float(p["tier1_max_dbh_in"]), float(p["tier2_max_dbh_in"])
    what = {
        1: f"DBH up to {t1:g} in",
        2: f"DBH over {t1:g} to {t2:g} in",
        3: f"DBH over {t2:g} in",
        4: "street tree, wetland or buffer, excessively steep slope",
        5: "landmark tree",
        6: "conservation easement, buffer area or DEC-protected native",
    }
    sec = _tier_sections()
    return {sec[n]: f"{sec[n]}: {w}, up to ${int(p[f'tier{n}_usd']):,}" for n, w in what.items()}


def words(category: str) -> str:
    """A legend category in words: an action or an offence said plainly, a penalty tier with what it covers."""
    c = str(category)
    if c in CATEGORY_WORDS:
        return CATEGORY_WORDS[c]
    return tier_words().get(c, c)


def _category(s: pd.Series, column: str) -> pd.Series:
    if column == "offence":
        return s.map(
            lambda v: (
                "offence"
                if v is True or v == 1
                else ("no offence" if v is False or v == 0 else (str(v) if isinstance(v, str) and v else "none"))
            )
        )
    if column == "offence_status":  # definite / conditional offences; a tree with neither has none
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
}
#: The colour of each civil penalty tier (a PALETTE index), by its number: keyed by the section its row cites
TIER_COLOURS = {1: 4, 2: 0, 3: 2, 4: 1, 5: 3, 6: 5}
GREY_CATEGORIES = ("none", "no offence", "retain")


def colour_table(categories: pd.Series) -> dict[str, tuple[int, int, int]]:
    """A colour per category: fixed for the known ones (:data:`FIXED_COLOURS`), grey for 'none'/'no
    offence'/'retain', and the palette's unused colours for any other, in the order of their names."""
    cats = sorted(set(categories.astype(str)))
    out = {c: NONE_COLOUR for c in cats if c in GREY_CATEGORIES}
    fixed = {**FIXED_COLOURS, **{s: TIER_COLOURS[n] for n, s in _tier_sections().items()}}
    out.update({c: PALETTE[fixed[c]] for c in cats if c in fixed and c not in out})
    free = [p for p in PALETTE if p not in out.values()] or PALETTE
    others = [c for c in cats if c not in out]
    out.update({c: free[i % len(free)] for i, c in enumerate(others)})
    return out


def points(
    trees: pd.DataFrame, site: Mapping[str, Any] | None, colour_by: str = "action", value_unit: str = ""
) -> tuple[pd.DataFrame, int]:
    """The trees that have coordinates, with east/north metres, a colour and hover text; and how many had none.

    ``value_unit`` follows each value in the hover text ('/yr' on the annual value basis).

    Returns an empty frame when the survey has no coordinate columns (see :func:`treecalc.reference.geo.tree_lonlat`).
    """
    ll = tree_lonlat(trees, site)
    if ll is None:
        return pd.DataFrame(), 0
    ok = ll["latitude_deg"].notna()
    t, ll = trees.loc[ok], ll.loc[ok]
    if t.empty:
        return pd.DataFrame(), int((~ok).sum())
    east, north = local_metres(ll["longitude_deg"].to_numpy(), ll["latitude_deg"].to_numpy())
    col = colour_by if colour_by in t else None
    if colour_by == "offence" and "offence_status" in t:  # definite / conditional, when given
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
    # drawn size only (not a crown model): DBH/2.5 px at the first view, between DOT_PX; in the map's metres
    # at that view's scale, so that a dot grows as one zooms in. (A fixed 0.25 m per inch drew every tree
    # of a wide survey under the pixel floor: all dots alike.)
    px = np.clip(np.nan_to_num(dbh.to_numpy(float), nan=0.0) / DOT_IN_PER_PX, *DOT_PX)
    df["radius_m"] = px / px_per_m(_span(df))
    df["category_words"] = [words(c) for c in df["category"]]
    # a dead tree is ringed: a black outline a third of its drawn radius wide (a living one: a thin grey line);
    # in the map's metres, as its dots are (the orthographic view drew "pixel" widths as metres)
    df["line_color"] = [[0, 0, 0] if d else [40, 40, 40] for d in dead]
    # (a living tree's line a twelfth of its radius: a fixed 0.1 m outdrew a 3 px dot on a small site)
    df["line_px"] = df["radius_m"].to_numpy() / np.where(dead, 3.0, 12.0)
    df["state"] = np.where(dead, "dead", "living")
    # drawn in row order: the grey trees first, so that those the law speaks of are never covered by them
    grey = df["color"].map(lambda c: tuple(c) == NONE_COLOUR).to_numpy()
    return df.iloc[np.argsort(~grey, kind="stable")].reset_index(drop=True), int((~ok).sum())


#: A dot's radius at the map's first view: DBH (in) / DOT_IN_PER_PX pixels, between DOT_PX (min, max)
DOT_IN_PER_PX = 2.5
DOT_PX = (3.0, 16.0)
#: What a dot's size means, for the legend
SIZE_WORDS = (
    f"dot size: radius in proportion to DBH ({DOT_PX[0]:g} px at {DOT_PX[0] * DOT_IN_PER_PX:g} in or less or "
    f"not given, {DOT_PX[1]:g} px at {DOT_PX[1] * DOT_IN_PER_PX:g} in or more)"
)
#: Pixels across the trees' spread at the first view: the map on a 390 px phone is about 358 px wide (the page's
#: 16 px padding each side), and the trees, with the margin of :func:`px_per_m` and the scale label under them,
#: fit there (500 px cut the left trees and the scale label); on a wide screen they sit in the middle, to zoom
VIEW_PX = 280.0
#: Up to this many trees, each is labelled with its tag on the map (more would cover one another); any tree's
#: tag shows on hover
LABEL_MAX = 60


def _span(df: pd.DataFrame) -> float:
    """The trees' spread in metres (at least 10 m)."""
    return float(max(np.ptp(df["east_m"]), np.ptp(df["north_m"]), 10.0))


def px_per_m(span: float) -> float:
    """Pixels per metre at the first view: the trees' spread (with a margin) fills :data:`VIEW_PX`."""
    return VIEW_PX / (span * 1.2)


def deck(df: pd.DataFrame, colour_label: str = "Action") -> Any:
    """A pydeck Deck of the points in an orthographic east/north view: no basemap, no network."""
    import pydeck as pdk  # optional dependency: pydeck ([app] extra)

    cols = ["east_m", "north_m", "tag", "species", "dbh", "value", "category_words", "color", "radius_m"]
    cols += [c for c in ("line_color", "line_px", "state") if c in df]
    data = df[cols]
    layer = pdk.Layer(
        "ScatterplotLayer",
        id="trees",
        data=data,
        get_position=["east_m", "north_m"],
        get_fill_color="color",
        get_radius="radius_m",
        radius_units="meters",
        radius_min_pixels=2,  # only so that a zoomed-out tree never vanishes; sizes are set in points()
        stroked=True,
        get_line_color="line_color" if "line_color" in data else [40, 40, 40],
        line_width_units="meters",
        get_line_width="line_px" if "line_px" in data else 0.1,
        pickable=True,
    )
    span = _span(df)
    bar = scale_bar(df, span)
    zoom = float(np.log2(px_per_m(span)))  # VIEW_PX across the trees
    view = pdk.View(type="OrthographicView", controller=True, flip_y=False)
    state = pdk.ViewState(target=[*view_centre(df, span), 0], zoom=zoom, min_zoom=zoom - 4, max_zoom=zoom + 8)
    tip = {
        "html": "<b>Tree {tag}</b><br/>{species}<br/>DBH {dbh}<br/>Value {value}<br/>"
        f"{colour_label}: {{category_words}}" + ("<br/>{state}" if "state" in data else ""),
        "style": {"fontSize": "13px"},
    }
    bar_layers = [
        pdk.Layer(
            "PathLayer",
            id="scale_bar",
            data=[{"path": bar["path"]}],
            get_path="path",
            get_color=[0, 0, 0],
            width_units="meters",
            get_width=bar["metres"] / 25,
        ),
        pdk.Layer(
            "TextLayer",
            id="scale_text",
            data=[{"position": bar["text_at"], "text": bar["text"]}],
            get_position="position",
            get_text="text",
            get_size=13,
            get_color=[0, 0, 0],
            get_text_anchor='"start"',
            get_alignment_baseline='"bottom"',
        ),
    ]
    tags = (
        [
            pdk.Layer(
                "TextLayer",
                id="tree_tags",
                data=data[["east_m", "north_m", "tag"]],
                get_position=["east_m", "north_m"],
                get_text="tag",
                get_size=12,
                get_color=[30, 30, 30],
                get_text_anchor='"middle"',
                get_alignment_baseline='"bottom"',
                get_pixel_offset=[0, -DOT_PX[1] / 2 - 4],  # above the dot (the screen's y runs down)
            )
        ]
        if len(data) <= LABEL_MAX
        else []
    )
    return pdk.Deck(
        layers=[layer, *bar_layers, *tags],
        views=[view],
        initial_view_state=state,
        map_provider=None,
        map_style=None,
        tooltip=tip,
    )


def view_centre(df: pd.DataFrame, span: float) -> tuple[float, float]:
    """The first view's centre: the middle of the trees' box with the scale bar under it (east, north metres). The
    trees' mean (the origin of their metres) put a lot whose trees lean one way off the screen's side."""
    east, north = df["east_m"].to_numpy(float), df["north_m"].to_numpy(float)
    low = float(north.min()) - span * 0.08  # the scale bar (scale_bar)
    return (float(east.min() + east.max()) / 2, (low + float(north.max())) / 2)


#: Metres in a foot (the scale bar says both)
FT_M = M_PER_FT


def scale_bar(df: pd.DataFrame, span: float) -> dict[str, Any]:
    """A scale bar under the trees' bottom-left: a round length about a fifth of the trees' spread, in metres
    and feet (the map is in east/north metres)."""
    target = span / 5
    nice = max(x for x in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000) if x <= max(target, 1))
    x0 = float(df["east_m"].min())
    y0 = float(df["north_m"].min()) - span * 0.08
    return {
        "path": [[x0, y0], [x0 + nice, y0]],
        "text_at": [x0, y0 + span * 0.03],
        "text": f"{nice:g} m ({nice / FT_M:,.0f} ft)",
        "metres": nice,
    }


def legend(df: pd.DataFrame) -> pd.DataFrame:
    """The colour key with the count of trees per category (also the map's text alternative)."""
    g = df.groupby("category", sort=False).agg(trees=("tag", "size"), color=("color", "first")).reset_index()
    g["words"] = [words(c) for c in g["category"]]
    g["colour"] = [f"#{c[0]:02x}{c[1]:02x}{c[2]:02x}" for c in g["color"]]
    return g.drop(columns="color").sort_values("trees", ascending=False)
