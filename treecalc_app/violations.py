"""Violations & penalties (the Engineer's view): §208-29 tiers, doubling, criminal maxima."""

from __future__ import annotations

import streamlit as st

from app_support import state, ui, views
from app_support import printable  # the PDF report (issue 11)
from app_support.views import get

TRI = {"As the survey shows": None, "Yes": True, "No": False}


def _tri(label: str, opt: str, key: str, help: str) -> None:
    cur = state.opt(opt)
    names = list(TRI)
    idx = next(i for i, v in enumerate(TRI.values()) if v is cur) if cur in (True, False, None) else 0
    v = st.radio(label, names, index=idx, horizontal=True, key=key, help=help)
    state.set_opt(opt, TRI[v])


def _controls() -> None:
    v = st.checkbox("Trees were harmed without a permit (a violation)", value=bool(state.opt("violation")),
                    key="w_violation",
                    help="Trees marked removed or damaged in the survey are the harmed trees; the replacement "
                         "becomes 120% of their value (§208-22F) and the §208-29 penalties apply.")
    state.set_opt("violation", True if v else None)
    c1, c2 = st.columns(2)
    with c1:
        _tri("An application was pending", "application_pending", "w_pending",
             "§208-29B(7): every per-tree amount doubles when a tree was harmed while an application was pending.")
    with c2:
        _tri("Clear cutting took place", "clear_cutting", "w_clear_cutting",
             "§208-17: four or more trees without a permit; doubles the per-tree amounts (§208-29B(7)).")
    c1, c2 = st.columns(2)
    days = c1.number_input("Days the violation continued", min_value=1, step=1,
                           value=int(state.opt("continuing_days", 1)), key="w_days",
                           help="Each day of a continuing violation is a separate offence (§208-29).")
    state.set_opt("continuing_days", None if int(days) == 1 else int(days))
    pct = c2.number_input("Replacement percentage set by the Village Engineer", min_value=0.0, max_value=1000.0,
                          value=state.opt("replacement_percent"), step=10.0, key="w_repl_pct", placeholder="the law's",
                          help="Leave empty for the law's 90% (permit) or 120% (after a violation).")
    state.set_opt("replacement_percent", pct)


def _mark_harmed() -> None:
    """Trees the Engineer found harmed (removed or damaged) although the survey says otherwise."""
    sv = state.survey()
    trees = sv.trees
    if not len(trees):
        return
    tags = trees["tag"].astype(str).tolist()
    label = dict(zip(tags, [f"{t} · {s} · {d:g} in · survey: {a}" for t, s, d, a in
                            zip(tags, trees["species"], trees["dbh_in"], trees["action"])]))
    current = dict(state.opt("actions") or {})
    c1, c2 = st.columns([3, 1])
    removed = c1.multiselect("Trees found removed", tags, default=[t for t, a in current.items() if a == "removed"
                                                                   and t in label],
                             format_func=label.get, key="w_marked_removed", placeholder="as the survey says")
    damaged = c1.multiselect("Trees found damaged (topped, excessively pruned, injured, girdled)", tags,
                             default=[t for t, a in current.items() if a == "damaged" and t in label],
                             format_func=label.get, key="w_marked_damaged", placeholder="as the survey says")
    marks = {t: "removed" for t in removed}
    marks.update({t: "damaged" for t in damaged if t not in marks})
    state.set_opt("actions", marks or None)
    c2.caption("A harmed tree is an offence only when its removal needed a permit (§208-19) and none was held; "
               "the law engine decides, tree by tree.")


def body() -> None:
    if not ui.need("read_survey", "assess"):
        return
    with st.expander("Violation facts", expanded=True):
        _controls()
        _mark_harmed()
    a = state.assessment()
    ui.jurisdiction_note(a)
    pen = get(a, "penalties") or {}
    c = st.columns(3)
    c[0].metric("Civil penalty, maximum (USD, §208-29B)", ui.usd(get(pen, "civil_penalty_max_usd"), cents=True),
                help="§208-29B amounts are maxima (\"up to\").")
    c[1].metric("Doubled (§208-29B(7))", "Yes" if get(pen, "doubled") else "No")
    c[2].metric("Criminal fine, maximum (USD, §208-29A)", ui.usd(get(pen, "criminal_fine_max_usd"), cents=True),
                help="§208-29A maxima.")
    if get(pen, "fine_max_usd") is not None:
        st.metric("Fine, maximum (USD, Wesley Hills Chapter 95)", ui.usd(get(pen, "fine_max_usd"), cents=True))
    reasons = get(pen, "doubling_reasons") or []
    if reasons:
        st.markdown("**Why the amounts double**")
        for r in reasons:
            st.markdown(f"- {r}")
    st.caption("These are maxima: the court sets the penalty up to them.")

    per_tree = views.frame(get(pen, "per_tree") or get(pen, "trees"))
    if per_tree.empty:
        trees = get(a, "trees")
        cols = [c for c in trees.columns if any(k in c for k in ("tier", "penalty"))] if trees is not None else []
        if cols:
            ident = [c for c in ("tag", "species", "species_code", "dbh_in", "action") if c in trees]
            per_tree = trees[ident + cols]
            per_tree = per_tree[per_tree[cols].notna().any(axis=1)]
    st.subheader("Per tree")
    if len(per_tree):
        st.dataframe(per_tree, width="stretch", hide_index=True)
    else:
        st.caption("No tree was harmed without a permit: no penalty.")
    other = views.kv_table(pen, skip=("per_tree", "trees", "doubling_reasons"))
    with st.expander("All penalty figures"):
        st.dataframe(other, width="stretch", hide_index=True)
    ui.page_downloads("violations", {"Penalties per tree": per_tree if len(per_tree) else None})
    printable.pdf_button("violations")  # the printable report (issue 11)


ui.run_page("Violations & penalties", body,
            caption="Chapter 208 §208-29: civil tiers, doubling, continuing days and criminal maxima.")
