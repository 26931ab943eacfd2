"""The Permit page's "cheapest lawful plan" panel (:func:`treecalc.studies.plan.plan` drawn) and the projection's
mortality control and payback line (the assessment's ``projection_summary``): nothing decided here."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from treecalc.app import state, ui
from treecalc.law.registry import Jurisdiction
from treecalc.models.growth import default_mortality_rate
from treecalc.quantities import RANGES


def panel(rec: Jurisdiction, a: Any) -> None:
    """For each number of the optional removals, the cheapest set and its cost, with the reasons; the sections
    cited are the applied law's own (``rec.sections``), as the assessment ``a`` recorded them on its date."""
    sec = rec.parts(a.labels.sections)
    st.subheader("Which trees to keep: the cheapest plan for each number of removals")
    # each part of the cost under the section the law heads it with; a part the law has not (a town whose
    # penalties are not held) is not named
    parts = [
        f"{what}, {sec[k]}"
        for what, k in (
            ("planting", "planting"),
            ("payment in lieu", "fund"),
            ("any civil penalty", "civil_penalty" if "civil_penalty" in sec else "offence"),
        )
        if k in sec
    ]
    st.caption(
        "Trees marked 'Must remove' in the survey are always removed; every other proposed removal is "
        f"optional. Each cost is the full assessment of that set of removals ({' + '.join(parts)})."
    )
    if said := st.session_state.pop(_USED, None):
        st.success(said, icon=":material/check:")
    c1, c2 = st.columns([1, 1])

    budget = c1.number_input(  # the range of treecalc plan --budget (units.RANGES "usd")
        "Budget (USD, optional)",
        min_value=0.0,
        max_value=float(RANGES["usd"].high),
        step=500.0,
        value=None,
        key="w_plan_budget",
    )
    if not c2.button("Find the cheapest plans", key="w_plan_run"):
        if st.session_state.pop(_CANCELLED, False):
            st.info("The plan was cancelled: nothing was kept. Find the cheapest plans again to start over.")
        return
    result = _run(budget)
    if result is None:
        return
    rows = [
        {
            "Optional removals": s.k,
            "Trees removed": ", ".join(s.remove),
            "Trees kept": ", ".join(s.keep),
            "Cost (USD)": s.cost_usd,
            "Planting (USD)": s.planting_usd,
            "In lieu (USD)": s.in_lieu_usd,
            "Penalty (USD)": s.penalty_usd,
            "Permit": "yes" if s.permit_required else "no",
            "Within budget": "yes" if s.within_budget else "no",
        }
        for s in result.frontier
    ]
    money = {c: st.column_config.NumberColumn(c, format="dollar") for c in rows[0] if "(USD)" in c} if rows else {}
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", column_config=money)
    for s in result.frontier:
        text, use = st.columns([5, 1], vertical_alignment="center")
        text.markdown(f"**{s.k} optional, {ui.usd(s.cost_usd, cents=True)}**: " + " ".join(s.reasons))
        use.button(
            "Use this plan",
            key=f"w_plan_use_{s.k}",
            on_click=_use,
            args=(list(s.keep), list(s.remove), f"{s.k} optional, {ui.usd(s.cost_usd, cents=True)}"),
            help="Keep the trees this plan keeps, in the table of trees kept above: the cost is worked out again.",
        )
    for k, why in result.unpriced.items():
        st.warning(f"{k} optional removals: no set can be priced: {why}")
    for n in result.notes:
        st.caption(f"• {n}")


_USED = "tc_plan_used"  # the plan applied, said above the panel once
_CANCELLED = "tc_plan_cancelled"  # the plan's Cancel pressed, said once on the run it starts


def _run(budget: float | None) -> Any:
    """The plan, with a progress bar told after each candidate assessed and a Cancel button. Pressing Cancel (or
    any other widget) asks Streamlit for a new run of the page, which stops this one at its next drawing, the
    progress bar's: the plan stops within one assessment and nothing is kept. None when refused (said here)."""
    bar, stop = st.empty(), st.empty()
    stop.button("Cancel", key="w_plan_cancel", on_click=_cancel, help="Stop the plan; nothing is kept.")
    shown = bar.progress(0.0, text="Assessing the candidate sets of removals…")

    def told(done: int, of: int) -> None:
        shown.progress(
            min(done / max(of, 1), 1.0),
            text=f"Assessed {done:,} of {of:,} candidate sets of removals (each a full assessment)…",
        )

    try:
        return state.plan(budget, progress=told)
    except state.AppError as e:
        st.info(str(e))
        return None
    finally:
        bar.empty()
        stop.empty()


def _cancel() -> None:
    st.session_state[_CANCELLED] = True


def _use(keep: list[str], remove: list[str], which: str) -> None:
    """Apply a plan's keeps (before the next run draws the page): the trees it keeps are kept, the optional trees
    it removes are proposed again; the keep table and the cost are drawn from the actions."""
    actions = dict(state.opt("actions") or {})
    for t in remove:
        if actions.get(t) == "retain":
            actions.pop(t)
    actions.update({t: "retain" for t in keep})
    state.set_opt("actions", actions or None)
    kept = ", ".join(keep) if keep else "no tree"
    st.session_state[_USED] = f"Plan used ({which}): kept {kept}, in the table of trees kept above."


def mortality_control() -> None:
    """The annual mortality of the projection, payback and cumulative basis (empty: the default)."""
    d = default_mortality_rate()
    pct = st.number_input(
        "Annual tree mortality (%)",
        min_value=0.0,
        max_value=99.0,
        step=0.5,
        value=None if state.opt("mortality") is None else state.opt("mortality") * 100,
        key="w_mortality",
        placeholder=f"{d:.1%} (default)",
        help=f"Share of the trees dying each year, removed and replacement trees alike; empty: {d:.1%}, the "
        "middle of the street-tree range of Roman & Scatena (2011), 3.5-5.1% a year.",
    )
    state.set_opt("mortality", None if pct is None else pct / 100)


def mortality_caption(a) -> str:
    """The rate the chart uses and the payback year, in words (the assessment's projection, computed once)."""
    s = a.projection_summary
    return f"Mortality: {s['mortality_rate']:.1%} of the trees die each year. Payback: {s['payback']}."
