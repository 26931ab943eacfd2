"""Map: the survey's trees where they stand, coloured by action, offence or penalty tier (no basemap)."""

from __future__ import annotations

import streamlit as st

from treecalc.app import map as tree_map
from treecalc.app import state, ui, views


def _site(a) -> dict:
    site = dict(getattr(getattr(a, "survey", None), "site", None) or {})
    site.update(getattr(a, "site", None) or {})
    site.update(state.read_opts().get("site") or {})
    return site


def body() -> None:
    a = state.assessment()
    choices = tree_map.colour_choices(str(a.jurisdiction))
    label = st.radio(
        "Colour the trees by",
        list(choices),
        horizontal=True,
        key="w_map_colour" if choices is tree_map.COLOUR_BY else "w_map_colour_wh",
    )
    try:
        df, missing = tree_map.points(a.trees, _site(a), choices[label], views.value_unit(a))
    except ValueError as e:
        st.warning(str(e))
        return
    if df.empty:
        st.info(
            "This survey has no tree coordinates. Add latitude/longitude columns (WGS84), or x/y "
            "(e.g. Easting/Northing) with the site fact crs (e.g. EPSG:2263), to see the trees on a map."
            + (f" {missing:,} trees have coordinates that are missing or out of range." if missing else "")
        )
        return
    st.caption(
        f"{len(df):,} trees placed (north up, metres from the trees' centre; no background map is loaded). "
        "Hover a tree for its tag, species, DBH and value."
        + (
            f" {missing:,} {'tree' if missing == 1 else 'trees'} without usable coordinates "
            f"{'is' if missing == 1 else 'are'} not shown."
            if missing
            else ""
        )
    )
    st.pydeck_chart(tree_map.deck(df, label), height=520, key="w_map_deck")
    leg = tree_map.legend(df)
    dead = int(df["dead"].sum()) if "dead" in df else 0
    st.markdown(
        "  ".join(
            f"<span style='color:{c}'>●</span> {ui.md_text(w)} ({n:,})"
            for w, n, c in zip(leg["words"], leg["trees"], leg["colour"])
        )
        + (f"  ◯ ringed in black: dead ({dead:,})" if dead else "")
        + f"  — {tree_map.SIZE_WORDS}; the bar: the scale.",
        unsafe_allow_html=True,
    )
    with st.expander("The trees on the map, as a table"):
        st.dataframe(
            df[["tag", "species", "dbh", "value", "dead", "category", "latitude_deg", "longitude_deg"]].rename(
                columns={
                    "tag": "Tag",
                    "species": "Species",
                    "dbh": "DBH",
                    "value": "Value",
                    "dead": "Dead",
                    "category": label,
                    "latitude_deg": "Latitude (°)",
                    "longitude_deg": "Longitude (°)",
                }
            ),
            hide_index=True,
            width="stretch",
        )


ui.run_page("Map", body, caption="Where the trees stand, and what the law says of each.", law=True)
