"""Benefits: per tree and in total, by benefit and by species (i-Tree Streets, Northeast)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_support import charts, lib, state, ui

USD_COLS = ["usd_stormwater", "usd_energy", "usd_air_quality", "usd_co2", "usd_property", "usd_total_annual"]


def _sidebar() -> None:
    """Value basis, prices and aesthetic parameters, with their defaults and sources."""
    data = lib.piece("data")
    with st.sidebar:
        st.subheader("Valuation")
        basis = str(state.opt("value_basis", "annual"))
        kinds = ["annual", "cumulative", "appraised"]
        kind = st.radio("Value basis", kinds, index=kinds.index(basis.split(":")[0]) if basis.split(":")[0] in kinds else 0,
                        key="w_basis_kind", horizontal=True,
                        help="annual: total annual benefits in dollars (the NTBC figure, §208-22B); cumulative: "
                             "benefits over N years with growth; appraised: the CTLA replacement value.")
        if kind == "cumulative":
            years = st.number_input("Years", 1, 100, int(basis.split(":")[1]) if ":" in basis else 20, key="w_basis_years")
            state.set_opt("value_basis", f"cumulative:{int(years)}")
        else:
            state.set_opt("value_basis", None if kind == "annual" else kind)

        b = dict(state.opt("benefit", {}) or {})
        with st.expander("Aesthetic / property value"):
            from treecalc.models import property_value as pv  # defaults are the library's

            home = st.number_input("Median home sale price (USD)", min_value=0.0,
                                   value=float(b.get("home_price_usd") or pv.DEFAULT_HOME_PRICE_USD), step=10_000.0,
                                   key="w_home_price",
                                   help=f"Default ${pv.DEFAULT_HOME_PRICE_USD:,.0f}: a placeholder the Village sets "
                                        "(McPherson et al. 2007).")
            b["home_price_usd"] = None if home == pv.DEFAULT_HOME_PRICE_USD else home
            lus = list(getattr(data, "LAND_USES", ["unspecified"]))
            lu = st.selectbox("Land use of trees without one", lus,
                              index=lus.index(b["land_use"]) if b.get("land_use") in lus else 0, key="w_land_use")
            b["land_use"] = None if lu == "unspecified" else lu
            from treecalc.benefits import default_large_tree_leaf_area_m2

            d_lsa = default_large_tree_leaf_area_m2()
            lsa = st.number_input("Leaf area of the large reference tree (m²)", min_value=1.0,
                                  value=float(b.get("large_tree_leaf_area_m2") or d_lsa), key="w_lsa",
                                  help=f"Default {d_lsa:.1f} m²: BDL OTHER at 40 years (i-Tree Streets growth tables).")
            b["large_tree_leaf_area_m2"] = None if abs(lsa - d_lsa) < 1e-9 else lsa
        with st.expander("Prices"):
            defaults = data.prices()
            units = data.price_units()
            st.caption("Zone defaults from data/species/prices.csv (i-Tree Streets Northeast, McPherson et al. 2007).")
            prices = dict(b.get("prices") or {})
            for name, default in defaults.items():
                v = st.number_input(f"{name} ({units.get(name, 'USD')})", min_value=0.0,
                                    value=float(prices.get(name, default)), format="%.5f", key=f"w_price_{name}",
                                    help=f"default {default:g}")
                if abs(v - default) > 1e-12:
                    prices[name] = v
                else:
                    prices.pop(name, None)
            b["prices"] = prices or None
        b = {k: v for k, v in b.items() if v is not None}
        state.set_opt("benefit", b or None)
        if b and st.button("Restore the defaults", key="w_benefit_reset"):
            for k in list(st.session_state):
                if k.startswith(("w_price_", "w_home_price", "w_land_use", "w_lsa")):
                    del st.session_state[k]
            state.set_opt("benefit", None)
            st.rerun()
        st.caption(f"Source: {getattr(data, 'SOURCE_NAME', 'i-Tree Streets')}")


def body() -> None:
    if not ui.need("read_survey", "compute_benefits"):
        return
    _sidebar()
    sv = state.survey()
    ben = state.benefits()
    if ben.empty:
        st.warning("The survey has no trees to value.")
        return
    ident = [c for c in ("tag", "species") if c in sv.trees]
    table = pd.concat([sv.trees[ident], ben], axis=1)
    cat = lib.piece("data").catalogue()
    table.insert(len(ident), "common_name", table["species_code"].map(cat["common_name"]))

    c = st.columns(6)
    labels = ["Total", "Stormwater", "Energy", "Air quality", "CO₂", "Property"]
    for col, label, key in zip(c, labels, ["usd_total_annual", *USD_COLS[:-1]]):
        col.metric(f"{label} (USD/yr)", ui.usd(ben[key].sum(), cents=True))
    st.caption(f"{len(ben):,} trees; value basis for the law: **{state.opt('value_basis', 'annual')}** "
               "(the benefits here are annual).")

    c1, c2 = st.columns(2)
    c1.altair_chart(charts.value_by_species(table, "common_name", "usd_total_annual"), width="stretch")
    c2.altair_chart(charts.benefits_by_category(ben), width="stretch")
    st.altair_chart(charts.dbh_distribution(ben), width="stretch")

    st.subheader("Per tree")
    f1, f2 = st.columns(2)
    names = sorted(table["common_name"].dropna().astype(str).unique())
    pick = f1.multiselect("Species", names, key="w_ben_species", placeholder="All species")
    lo, hi = float(ben["dbh_in"].min()), float(ben["dbh_in"].max())
    rng = f2.slider("DBH (in)", lo, max(hi, lo + 1), (lo, max(hi, lo + 1)), key="w_ben_dbh") if hi > lo else (lo, hi)
    view = table[table["dbh_in"].between(*rng)]
    if pick:
        view = view[view["common_name"].isin(pick)]
    money = {c: st.column_config.NumberColumn(format="$%.2f") for c in USD_COLS}
    st.dataframe(view, width="stretch", hide_index=True, column_config=money)

    st.subheader("By species")
    by_sp = (table.groupby(["species_code", "common_name"])[["dbh_in"]].count().rename(columns={"dbh_in": "trees"})
             .join(table.groupby(["species_code", "common_name"])[USD_COLS].sum()).reset_index()
             .sort_values("usd_total_annual", ascending=False))
    st.dataframe(by_sp, width="stretch", hide_index=True, column_config=money)
    ui.page_downloads("benefits", {"Benefits per tree": view, "Benefits by species": by_sp})


ui.run_page("Benefits", body, caption="Annual environmental benefits, i-Tree Streets Northeast tables.")
