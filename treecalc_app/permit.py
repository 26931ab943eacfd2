"""Permit & replacement (the applicant's view): §208-19 triggers, §208-22 replacement, the plan."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_support import charts, state, ui, views
from app_support import printable  # the PDF report (issue 11)
from app_support.views import get

DEFAULT = "Default (the law engine's choice)"


def _stock_controls() -> None:
    choices = views.species_choices()
    labels = dict(zip(choices["code"], choices["label"]))
    codes = [DEFAULT, *choices["code"]]
    mode = st.radio("Replacement stock", ["One species", "A stock list"], horizontal=True, key="w_stock_mode",
                    index=1 if state.opt("replacement_stock") else 0)
    if mode == "One species":
        state.set_opt("replacement_stock", None)
        cur = state.opt("replacement_species") or DEFAULT
        c1, c2, c3 = st.columns([3, 1, 1])
        sp = c1.selectbox("Replacement species", codes, index=codes.index(cur) if cur in codes else 0,
                          format_func=lambda c: labels.get(c, c), key="w_repl_species",
                          help="Natives first; invasive species (NY Part 575) are refused by §208-22E.")
        dbh = c2.number_input("Size (DBH, in)", min_value=0.1, max_value=60.0, value=state.opt("replacement_dbh_in"),
                               step=0.5, key="w_repl_dbh", placeholder="default",
                               help="Deciduous trees at least 1.5 in DBH; conifers at least 5 ft tall (§208-22D).")
        cost = c3.number_input("Unit cost (USD)", min_value=0.0, step=25.0, value=state.opt("replacement_cost_usd"),
                               key="w_repl_cost", placeholder="placeholder",
                               help="Supplied and planted, per tree; empty: the law engine's labelled placeholder.")
        state.set_opt("replacement_species", None if sp == DEFAULT else sp)
        state.set_opt("replacement_dbh_in", dbh)
        state.set_opt("replacement_cost_usd", cost)
    else:
        state.set_opt("replacement_species", None)
        state.set_opt("replacement_dbh_in", None)
        state.set_opt("replacement_cost_usd", None)
        stock = state.opt("replacement_stock") or [{"species": choices["code"].iloc[0], "dbh_in": 2.0,
                                                    "unit_cost_usd": 350.0}]
        df = pd.DataFrame(stock, columns=["species", "dbh_in", "unit_cost_usd"])
        st.caption("One row per kind of tree you can plant: the cheapest mix that carries the required value is found.")
        edited = st.data_editor(
            df, key="w_stock", num_rows="dynamic", hide_index=True, width="stretch",
            column_config={
                "species": st.column_config.SelectboxColumn("Species", options=list(choices["code"]), required=True,
                                                            help="natives first; invasives are refused"),
                "dbh_in": st.column_config.NumberColumn("DBH (in)", min_value=0.1, step=0.5, required=True),
                "unit_cost_usd": st.column_config.NumberColumn("Unit cost (USD)", min_value=0.0, format="$%.2f",
                                                               required=True),
            })
        rows = [{"species": r.species, "dbh_in": float(r.dbh_in), "unit_cost_usd": float(r.unit_cost_usd)}
                for r in edited.dropna().itertuples()]
        state.set_opt("replacement_stock", rows or None)

    kinds = ["Every tree needed", "A number of trees", "An area (sq ft)"]
    cur = 1 if state.opt("plantable") is not None else 2 if state.opt("plantable_area_sqft") is not None else 0
    kind = st.radio("The site can take", kinds, index=cur, horizontal=True, key="w_plantable_kind")
    if kind == kinds[1]:
        n = st.number_input("Trees the site can take", min_value=0, step=1, value=int(state.opt("plantable") or 0),
                            key="w_plantable")
        state.set_opt("plantable", int(n))
        state.set_opt("plantable_area_sqft", None)
    elif kind == kinds[2]:
        a = st.number_input("Plantable area (sq ft)", min_value=0.0, step=100.0,
                            value=float(state.opt("plantable_area_sqft") or 0.0), key="w_plantable_area",
                            help="Divided by the §208-6 spacing of each size class.")
        state.set_opt("plantable_area_sqft", float(a))
        state.set_opt("plantable", None)
    else:
        state.set_opt("plantable", None)
        state.set_opt("plantable_area_sqft", None)


def body() -> None:
    if not ui.need("read_survey", "assess"):
        return
    with st.expander("Replacement stock and planting space", expanded=True):
        _stock_controls()
    a = state.assessment()
    ui.jurisdiction_note(a)
    permit, rep, fund = get(a, "permit") or {}, get(a, "replacement") or {}, get(a, "fund") or {}
    unit = (get(a, "options") or {}).get("value_unit", "USD")  # USD/yr on the annual basis

    c = st.columns(3)
    c[0].metric("Permit required (§208-19)", "Yes" if get(permit, "required") else "No")
    c[1].metric("Replacement required (§208-22)", "Yes" if get(rep, "required") else "No")
    pct = get(rep, "percent")
    c[2].metric("Replacement percentage (§208-22A/F)", "—" if pct is None else f"{float(pct):g}%",
                help=f"value basis: {get(rep, 'value_basis')}")
    c = st.columns(3)
    c[0].metric(f"Removed value ({unit}, §208-22B)", ui.usd(get(rep, "removed_value_usd"), cents=True),
                help="Value the percentage applies to (invasive and good-forestry removals excluded).")
    c[1].metric(f"Required value ({unit}, §208-22A)", ui.usd(get(rep, "required_value_usd"), cents=True))
    c[2].metric("Native share of replacements (§208-22C)", "—" if get(rep, "native_share") is None
                else f"{float(get(rep, 'native_share')):.0%}")
    c = st.columns(3)  # labels carry unit and section: three to a row keeps them whole
    c[0].metric("Replacement trees required (trees, §208-22)", ui.num(get(rep, "trees_needed")))
    c[1].metric("Trees planted (trees, §208-22D)", ui.num(get(rep, "trees_planted")))
    c[2].metric("Trees paid in lieu (trees, §208-22D)", ui.num(get(rep, "trees_in_lieu")))
    c = st.columns([2, 1])
    c[0].metric("Payment in lieu to the Tree Preservation Fund (USD, §208-24)", ui.usd(get(fund, "fund_in_lieu_usd"), cents=True))

    for w in get(rep, "warnings") or []:
        st.warning(str(w))
    if get(fund, "placeholder") and get(rep, "trees_in_lieu"):
        st.warning(f"The fee in lieu is a {get(fund, 'label')}.")
    for n in get(rep, "notes") or []:
        st.caption(f"• {n}")

    st.subheader("Permit triggers (§208-19)")
    triggers = get(permit, "triggers") or []
    if triggers:
        for t in triggers:
            if isinstance(t, str):
                st.markdown(f"- {t}")
            else:
                tags = get(t, "tags") or []
                st.markdown(f"- **{get(t, 'section', '')}** {get(t, 'text', '')}"
                            + (f" — trees {', '.join(map(str, tags[:25]))}{' …' if len(tags) > 25 else ''}" if tags else ""))
        for e in get(permit, "exceptions_applied") or []:
            st.markdown(f"- exception **{get(e, 'section', '')}** {get(e, 'text', '')}")
        if get(permit, "approving_authority"):
            st.caption(f"Approving authority: {get(permit, 'approving_authority')}")
    else:
        st.caption("No §208-19 trigger holds.")
    trees = get(a, "trees")
    per_tree = _trigger_trees(trees)
    if per_tree is not None and len(per_tree):
        st.dataframe(per_tree, width="stretch", hide_index=True)

    st.subheader("Planting plan (§208-22)")
    plan = views.frame(get(rep, "plan"))
    if len(plan):
        st.dataframe(plan, width="stretch", hide_index=True)
    else:
        st.caption("No planting plan: nothing to replace.")
    stock_report = views.frame(get(rep, "stock"))
    for col in ("refusals", "notes"):
        if col in stock_report:
            stock_report[col] = stock_report[col].map(lambda v: "; ".join(map(str, v)) if isinstance(v, list) else v)
    if len(stock_report):
        with st.expander("Stock offered: accepted and refused, with the reasons"):
            st.dataframe(stock_report, width="stretch", hide_index=True)

    _projection(a, rep)
    ui.page_downloads("permit", {"Triggered trees": per_tree, "Planting plan": plan if len(plan) else None})
    printable.pdf_button("permit")  # the printable report (issue 11)


def _trigger_trees(trees: pd.DataFrame | None) -> pd.DataFrame | None:
    """The trees for which a §208-19 trigger holds, with the sections."""
    if not isinstance(trees, pd.DataFrame) or "permit_triggers" not in trees:
        return None
    has = trees["permit_triggers"].fillna("").astype(str).str.strip() != ""
    keep = [c for c in ("tag", "species", "species_code", "dbh_in", "action", "permit_needed", "permit_triggers",
                        "counted", "exclusion", "value_usd") if c in trees]
    return trees.loc[has, keep]


def _projection(a, rep) -> None:
    st.subheader("20 years: replacements against the trees removed")
    if not get(rep, "required"):
        st.caption("No replacement is required, so there is nothing to project.")
        return
    df = state.projection(20)
    if df.empty:
        st.caption("Nothing to project.")
        return
    st.altair_chart(charts.projection(df, title="Annual benefits over the next 20 years (USD/yr)"), width="stretch")
    st.caption("Each year's annual benefits (i-Tree Streets, the assessment's prices) of the trees counted toward "
               "replacement had they stayed, and of the planting plan, both grown with the treecalc growth curves "
               "(Urban Tree Database / i-Tree Streets age classes).")


ui.run_page("Permit & replacement", body,
            caption="Chapter 208 of Croton-on-Hudson: §208-19 permit triggers, §208-22 replacement, the cheapest plan.")
