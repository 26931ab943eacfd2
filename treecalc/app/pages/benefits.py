"""Benefits: per tree and in total, by benefit and by species (i-Tree Streets, Northeast)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from treecalc.app import charts, state, ui, views
from treecalc.models import property_value as pv  # the page's defaults are the library's
from treecalc.models.benefits import default_large_tree_leaf_area_m2, shown_dollars
from treecalc.models.equivalents import SOURCES as EQUIVALENTS_SOURCES
from treecalc.quantities import RANGES
from treecalc.reference import data
from treecalc.reference.data import reader_names
from treecalc.reference.data import zones as zone_table

USD_COLS = ["usd_stormwater", "usd_energy", "usd_air_quality", "usd_co2", "usd_property", "usd_total_annual"]


def _sidebar() -> None:
    """Value basis, prices and aesthetic parameters, with their defaults and sources."""
    with st.sidebar:
        st.subheader("Benefit parameters")
        b = dict(state.opt("benefit", {}) or {})
        zones = data.zones()
        found = "Found from the survey (site fact climate_zone, else the trees' coordinates, else Northeast)"
        choices = [found, *(f"{c} ({n})" for c, n in zip(zones.index, zones["name"]))]
        now = next((k for k, c in enumerate(zones.index, start=1) if c == b.get("zone")), 0)
        pick = st.selectbox("i-Tree Streets climate zone", choices, index=now, key="w_zone")
        b["zone"] = None if pick == found else pick.split(" ")[0]
        with st.expander("Aesthetic / property value"):
            home = st.number_input(
                "Median home sale price (USD)",
                min_value=float(RANGES["home_price_usd"].low),
                max_value=float(RANGES["home_price_usd"].high),  # the range of --home-price (units.RANGES)
                value=float(b.get("home_price_usd") or pv.DEFAULT_HOME_PRICE_USD),
                step=10_000.0,
                key="w_home_price",
                help=f"Default ${pv.DEFAULT_HOME_PRICE_USD:,.0f}: a placeholder the Village sets "
                "(McPherson et al. 2007).",
            )
            b["home_price_usd"] = None if home == pv.DEFAULT_HOME_PRICE_USD else home
            lus = list(getattr(data, "LAND_USES", ["unspecified"]))
            lu = st.selectbox(
                "Land use of trees without one",
                lus,
                index=lus.index(b["land_use"]) if b.get("land_use") in lus else 0,
                key="w_land_use",
            )
            b["land_use"] = None if lu == "unspecified" else lu

            d_lsa = default_large_tree_leaf_area_m2()
            lsa = st.number_input(
                "Leaf area of the large reference tree (m²)",
                min_value=1.0,
                max_value=float(RANGES["leaf_area_m2"].high),
                value=float(b.get("large_tree_leaf_area_m2") or d_lsa),
                key="w_lsa",
                help=f"Default {d_lsa:.1f} m²: i-Tree Streets' generic large broadleaf "
                "deciduous tree at 40 years (its growth tables).",
            )
            b["large_tree_leaf_area_m2"] = None if abs(lsa - d_lsa) < 1e-9 else lsa
        with st.expander("Prices"):
            defaults = data.prices()
            units = data.price_units()
            st.caption(
                "The values shown are the Northeast's (data/species/prices.csv, i-Tree Streets Northeast, "
                "McPherson et al. 2007); trees in another climate zone take that zone's own prices "
                "(data/species/zones/prices.csv) unless a price is changed here, which then applies in every zone."
            )
            prices = dict(b.get("prices") or {})
            for name, default in defaults.items():
                v = st.number_input(
                    f"{name} ({units.get(name, 'USD')})",
                    min_value=0.0,
                    max_value=float(RANGES["price_usd"].high),
                    value=float(prices.get(name, default)),
                    format="%.5f",
                    key=f"w_price_{name}",
                    help=f"default {default:g}",
                )
                if abs(v - default) > 1e-12:
                    prices[name] = v
                else:
                    prices.pop(name, None)
            b["prices"] = prices or None
        b = {k: v for k, v in b.items() if v is not None}
        state.set_opt("benefit", b or None)
        if b and st.button("Restore the defaults", key="w_benefit_reset"):
            for k in list(st.session_state):
                if str(k).startswith(("w_price_", "w_home_price", "w_land_use", "w_lsa")):
                    del st.session_state[k]
            state.set_opt("benefit", None)
            st.rerun()
        st.caption(f"Source: {getattr(data, 'SOURCE_NAME', 'i-Tree Streets')}")


def _basis_control() -> None:
    """The value basis the law compares (§208-22B), here where its values are shown."""
    views.basis_control()


def _cards(ben: pd.DataFrame, title: str) -> None:
    words = views.plain_benefits(ben)
    with st.container(border=True):
        st.markdown(f"#### {title}")
        c = st.columns(2)
        c[0].markdown(":material/water_drop: " + words["stormwater"])
        c[1].markdown(":material/bolt: " + words["energy"])
        c = st.columns(2)
        c[0].markdown(":material/co2: " + words["co2"])
        c[1].markdown(":material/air: " + words["air"])


def _totals(ben: pd.DataFrame) -> None:
    labels = ["Total", "Stormwater", "Energy", "Air quality", "CO₂", "Property"]
    keys = ["usd_total_annual", *USD_COLS[:-1]]
    for row in range(2):  # three to a row: the figures stay whole at 1,100 px
        c = st.columns(3)
        tiles = zip(labels[3 * row : 3 * row + 3], keys[3 * row : 3 * row + 3])
        ui.money_row(c, [(f"{label} (USD/yr)", ben[key].sum(), None) for label, key in tiles])


def _on_the_basis(table: pd.DataFrame) -> None:
    """The value on the law's basis (annual, over N years, appraised), in total and by species."""
    st.subheader("Value on the law's basis")
    _basis_control()
    with st.spinner("Valuing the trees on this basis…"):
        a = state.assessment()
    opts = a.options
    st.caption(f"Value basis: **{opts.get('value_basis_label')}**.")
    vals = a.trees["value_usd"].to_numpy(float) if len(a.trees) == len(table) else None
    if vals is None:
        st.caption("The assessment's trees do not line up with the survey's: shown on the Permit page.")
        return
    unit = opts.get("value_unit", "USD")
    c = st.columns(3)
    ui.money_metric(
        c[0],
        f"All trees on this basis ({unit})",
        vals.sum(),
        help="The sum of each tree's value rounded to the cent, as the law engine compares them.",
    )
    t = table.assign(value_usd=vals)
    by = (
        t.groupby("common_name")["value_usd"]
        .agg(["sum", "count"])
        .sort_values("sum", ascending=False)
        .reset_index()
        .rename(columns={"common_name": "Species", "sum": f"Value ({unit})", "count": "Trees"})
    )
    with st.expander(f"Value on this basis by species ({len(by)} species)"):
        st.dataframe(
            by,
            width="stretch",
            hide_index=True,
            column_config={f"Value ({unit})": st.column_config.NumberColumn(format="dollar")},
        )


def _charts(table: pd.DataFrame, ben: pd.DataFrame) -> None:
    c1, c2 = st.columns(2)
    c1.altair_chart(charts.value_by_species(table, "common_name", "usd_total_annual"), width="stretch")
    c2.altair_chart(charts.benefits_by_category(ben), width="stretch")
    st.altair_chart(charts.dbh_distribution(ben), width="stretch")
    with st.expander("The charts as tables (text alternative)"):
        cat = charts.category_table(ben)
        st.dataframe(
            cat,
            hide_index=True,
            width="stretch",
            column_config={
                "USD/yr": st.column_config.NumberColumn(format="dollar"),
                "Share": st.column_config.NumberColumn(format="percent"),
            },
        )
        dbh = pd.to_numeric(ben["dbh_in"], errors="coerce")
        classes = (dbh // 4 * 4).value_counts().sort_index()
        st.dataframe(
            pd.DataFrame(
                {"DBH class (in)": [f"{lo:g}–{lo + 4:g}" for lo in classes.index], "Trees": classes.to_numpy()}
            ),
            hide_index=True,
            width="stretch",
        )
        st.caption("Annual benefits by species: the *By species* table below.")


def body() -> None:
    _sidebar()
    sv = state.survey()
    with st.spinner("Computing the benefits…"):
        ben = state.benefits()
    if ben.empty:
        st.warning("The survey has no trees to value.")
        return
    # each tree's total to the cent, as the law engine values it and the statement writes it, and its parts the
    # cents that add up to it: the tiles then add up to the total (each part rounded alone they did not)

    ben = shown_dollars(ben)
    ident = [c for c in ("tag", "species") if c in sv.trees]
    table = pd.concat([sv.trees[ident], ben], axis=1)

    names = reader_names()
    table.insert(len(ident), "common_name", table["species_code"].map(names).fillna(table["species_code"]))

    _cards(ben, f"What these {len(ben):,} trees do each year")
    _totals(ben)
    zone = str(ben["zone"].iloc[0]) if "zone" in ben and len(ben) else "NoEastXXX"

    counts = ben["zone"].astype(str).value_counts() if "zone" in ben else pd.Series(dtype=int)
    where = (
        f"{zone_table().at[zone, 'name']} climate zone, {zone}" + (", the default" if "zone" not in ben else "")
        if len(counts) < 2  # trees in several zones: each valued in its own, the zones counted
        else "each tree in its own climate zone: "
        + ", ".join(f"{n:,} in {zone_table().at[z, 'name']} ({z})" for z, n in counts.items())
    )
    st.caption(f"{len(ben):,} trees; annual benefits (i-Tree Streets, {where}). " + EQUIVALENTS_SOURCES)
    names_sorted = sorted(table["common_name"].dropna().astype(str).unique())
    one = st.selectbox(
        "The same answer for one species", names_sorted, index=None, key="w_ben_one", placeholder="Choose a species"
    )
    if one:
        sel = (table["common_name"] == one).to_numpy()
        _cards(ben[sel], f"What the {int(sel.sum()):,} {one} trees do each year")
    _charts(table, ben)
    _on_the_basis(table)

    st.subheader("Per tree")
    f1, f2 = st.columns(2)
    pick = f1.multiselect("Species", names_sorted, key="w_ben_species", placeholder="All species")
    lo, hi = float(ben["dbh_in"].min()), float(ben["dbh_in"].max())
    rng = f2.slider("DBH (in)", lo, max(hi, lo + 1), (lo, max(hi, lo + 1)), key="w_ben_dbh") if hi > lo else (lo, hi)
    view = table[table["dbh_in"].between(*rng)]
    if pick:
        view = view[view["common_name"].isin(pick)]
    money = {views.label(c): st.column_config.NumberColumn(format="dollar") for c in USD_COLS}
    views.show_table(view, first=("tag", "species", "dbh_in", "usd_total_annual"))

    st.subheader("By species")
    plain = ["stormwater_gal", "electricity_kwh", "co2_sequestered_lb", "co2_avoided_lb", "air_quality_lb"]
    keys = ["species_code", "common_name"]
    by_sp = (
        table.groupby(keys)[["dbh_in"]]
        .count()
        .rename(columns={"dbh_in": "trees"})
        .join(table.groupby(keys)[[c for c in plain if c in table] + USD_COLS].sum())
        .reset_index()
        .sort_values("usd_total_annual", ascending=False)
    )
    st.dataframe(
        views.labelled(by_sp.assign(**{c: by_sp[c].round(0) for c in ("stormwater_gal",) if c in by_sp})),
        width="stretch",
        hide_index=True,
        column_config={**views.number_config(by_sp), **money},
    )
    ui.page_downloads(
        "benefits", {"Benefits per tree": views.labelled(view), "Benefits by species": views.labelled(by_sp)}
    )


ui.run_page(
    "Benefits",
    body,
    caption="Annual environmental benefits, i-Tree Streets tables of the survey's climate zone (named below).",
    law=True,
)
