"""Map: the survey's trees where they stand, coloured by action, offence or penalty tier (no basemap)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import streamlit as st

from treecalc.app import map as tree_map
from treecalc.app import state, ui, views
from treecalc.report.exports import export_frame
from treecalc.report.layers import write_layers


def _site(a) -> dict:
    site = dict(getattr(getattr(a, "survey", None), "site", None) or {})
    site.update(getattr(a, "site", None) or {})
    site.update(state.read_opts().get("site") or {})
    return site


def gpkg_bytes(a) -> bytes:
    """The trees of ``a`` as a GeoPackage (:func:`treecalc.report.layers.write_layers`: a point per tree with its
    assessment, and the summary), made when the user clicks."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "trees.gpkg"
        write_layers(a, path)
        return path.read_bytes()


def export_csv(a, fmt: str) -> bytes:
    """The survey's trees in the layout of ``treecalc survey --export fmt`` (itree-eco, opentreemap), as CSV."""
    survey = getattr(a, "survey", None)
    zone = (state.opt("benefit", {}) or {}).get("zone")
    frame = export_frame(survey.trees if survey is not None else a.trees, fmt, _site(a), zone)
    return ui.csv_bytes(frame)


def _downloads(a) -> None:
    """The trees as a GeoPackage for QGIS, and the i-Tree Eco and OpenTreeMap imports."""
    st.subheader("Downloads")
    src = state.source()
    stem = ui.slug(src.name.rsplit(".", 1)[0]) if src else "survey"
    c1, c2, c3 = st.columns(3)

    def made(job, what: str):  # a download that could not be made says why in the file, not a traceback
        def run() -> bytes:
            try:
                return job()
            except Exception as e:  # noqa: BLE001 - said to the user in the file downloaded
                return f"The {what} could not be made: {e}".encode()

        return run

    ui.download(
        c1,
        "Trees as a GeoPackage",
        made(lambda: gpkg_bytes(a), "GeoPackage"),
        f"trees_{stem}.gpkg",
        "application/geopackage+sqlite3",
        "w_map_gpkg",
        icon="map",
        help="Layer trees: a point per tree (WGS84) with its assessment; table summary: the figures and the "
        "fingerprint. A tree without coordinates is a row without geometry. Opens in QGIS.",
    )
    ui.download(
        c2,
        "i-Tree Eco inventory (CSV)",
        made(lambda: export_csv(a, "itree-eco"), "i-Tree Eco inventory"),
        f"itree_eco_{stem}.csv",
        "text/csv",
        "w_map_eco",
        help="An existing inventory for i-Tree Eco's import: tree ID, species, DBH, coordinates",
    )
    ui.download(
        c3,
        "OpenTreeMap import (CSV)",
        made(lambda: export_csv(a, "opentreemap"), "OpenTreeMap import"),
        f"opentreemap_{stem}.csv",
        "text/csv",
        "w_map_otm",
        help="OpenTreeMap's tree import columns",
    )


def body() -> None:
    a = state.assessment()
    _map(a)
    _downloads(a)


def _map(a) -> None:
    choices = tree_map.colour_choices(str(a.jurisdiction))
    label = st.radio(
        "Colour the trees by",
        list(choices),
        horizontal=True,
        key="w_map_colour" if "Penalty tier" in choices else "w_map_colour_wh",
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
