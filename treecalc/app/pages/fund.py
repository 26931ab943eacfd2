"""Fund & fee schedule (the Engineer's view): §208-24C payments in lieu into the Tree Preservation Fund."""

from __future__ import annotations

from typing import Any

import streamlit as st

from treecalc.app import (
    printable,  # the PDF report
    state,
    ui,
    views,
)
from treecalc.jurisdictions import DEFAULT, REGISTRY
from treecalc.rules.croton_on_hudson.schedule import fee_schedule_toml
from treecalc.units import RANGES


def _held_schedules() -> dict:
    from treecalc.rules.law_data import DEFAULT_FEE_SCHEDULE, read_toml

    return read_toml(DEFAULT_FEE_SCHEDULE)


def _default_schedule() -> dict:
    """The schedule of the data folder in force today, the date the app assesses on (a resolution recorded ahead of
    its date is not yet the fee; the latest held only when none is in force today, which the assessment refuses)."""
    import datetime as dt

    from treecalc.law import LawNotInForce
    from treecalc.rules.croton_on_hudson.schedule import schedule_in_force
    from treecalc.rules.law_data import DEFAULT_FEE_SCHEDULE

    held = _held_schedules()
    try:
        raw, when = schedule_in_force(held, str(DEFAULT_FEE_SCHEDULE), dt.date.today())
    except LawNotInForce:
        raw, when = schedule_in_force(held, str(DEFAULT_FEE_SCHEDULE), None)
    return {**raw, **({"resolution_date": when.isoformat()} if when else {})}


def _recorded_toml(new: dict) -> bytes:
    """The data folder's schedules with ``new`` recorded after them (its Board resolution date), earlier kept."""
    import tempfile
    from pathlib import Path

    from treecalc.rules.croton_on_hudson.schedule import record_schedule
    from treecalc.rules.law_data import DEFAULT_FEE_SCHEDULE

    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "fee_schedule.toml"
        p.write_bytes(DEFAULT_FEE_SCHEDULE.read_bytes())
        return record_schedule(
            p, {k: v for k, v in new.items() if k != "resolution_date"}, new["resolution_date"]
        ).encode()


def _schedule_controls() -> dict:
    base = _default_schedule()
    cur = dict(state.opt("fee_schedule") or base)
    bases = ["per_tree", "value"]
    c1, c2, c3 = st.columns(3)
    basis = c1.radio(
        "Basis of payments in lieu",
        bases,
        index=bases.index(str(cur.get("basis", "per_tree"))),
        key="w_fee_basis",
        horizontal=True,
        format_func={"per_tree": "A fee per tree", "value": "The unmet value"}.get,
        help="per_tree: a fee for each required replacement tree not planted; "
        "value: the unmet value times a multiplier.",
    )
    fee = c2.number_input(
        "Fee per tree (USD)",
        # a fee of $0 is no fee schedule at all (the assessment refuses it): the widget cannot go there
        min_value=0.01,
        max_value=float(RANGES["usd"].high),  # the range of --fee-per-tree and of a fee schedule (units.RANGES)
        step=25.0,
        value=max(0.01, float(cur.get("fee_per_tree_usd", 0) or 0)),
        key="w_fee_per_tree",
        disabled=basis != "per_tree",
        help="More than $0: the fee for each required replacement tree not planted (§208-24C).",
    )
    mult = c3.number_input(
        "Multiplier of the unmet value",
        min_value=0.0,
        max_value=float(RANGES["multiplier"].high),
        step=0.1,
        value=float(cur.get("multiplier", 1) or 1),
        key="w_fee_multiplier",
        disabled=basis != "value",
    )
    set_by_board = st.checkbox(
        "These amounts were set by Board resolution", key="w_fee_board", value=not bool(cur.get("placeholder", True))
    )
    resolved_on = None
    if set_by_board:
        import datetime as dt

        given = cur.get("resolution_date")
        resolved_on = st.date_input(
            "Date of the Board resolution (§208-24C)",
            value=dt.date.fromisoformat(str(given)) if given else None,
            key="w_fee_resolution_date",
            help="Recorded with the schedule: an assessment reads the schedule in force on its date; "
            "the earlier schedules are kept.",
        )
    new: dict[str, Any] = {
        "basis": basis,
        "fee_per_tree_usd": f"{fee:.2f}",
        "multiplier": f"{mult:g}",
        "placeholder": not set_by_board,
        "label": (
            (
                f"set by Board resolution of {resolved_on.isoformat()} (§208-24C)"
                if resolved_on
                else "set by Board resolution (§208-24C)"
            )
            if set_by_board
            else "PLACEHOLDER, to be set by Board resolution (§208-24C)"
        ),
    }
    if resolved_on:
        new["resolution_date"] = resolved_on.isoformat()
    same = (
        new["basis"] == str(base.get("basis"))
        and float(new["fee_per_tree_usd"]) == float(base.get("fee_per_tree_usd", 0))
        and float(new["multiplier"]) == float(base.get("multiplier", 1))
        and new["placeholder"] == bool(base.get("placeholder", False))
        and new.get("resolution_date") == base.get("resolution_date")
    )
    state.set_opt("fee_schedule", None if same else new)
    if new["placeholder"]:
        st.warning("The fee is a placeholder until the Board sets it (§208-24C); every output says so.")
    return new


def body() -> None:
    st.subheader("Fee schedule")
    schedule = _schedule_controls()
    dated = bool(schedule.get("resolution_date"))
    st.download_button(
        "Fee schedule (TOML)",
        # with a resolution date: the data folder's schedules with this one recorded after them (earlier kept)
        data=_recorded_toml(schedule) if dated else fee_schedule_toml(schedule).encode(),
        file_name="fee_schedule.toml",
        mime="application/toml",
        key="fund_toml",
        on_click="ignore",
        icon=":material/download:",
        help="The schedule set above, as a file: keep it with the Village's records.",
    )
    if views.replaces(views.survey_record()):  # a law without replacement (Chapter 95) has no fund
        st.subheader("Planting space on the site")
        st.caption(
            "The same setting as on the Permit page: the fund is paid for the replacement trees the site "
            "cannot take (§208-22D)."
        )
        views.plantable_controls()
        views.basis_control("fund")  # the unmet value and a payment on the value are on this basis
    with st.spinner("Assessing the survey…"):
        a = state.assessment()
    ui.jurisdiction_note(a)
    fund = a.fund
    rec = views.record(a)
    if not rec.fund_name:
        funded = REGISTRY[DEFAULT]  # the law whose fee schedule (§208-24C) the page shows
        st.info(
            f"{rec.chapter} has no tree fund and no payment in lieu: the fee schedule above is "
            f"{views.place(funded)}'s (§208-24C) and does not apply."
        )
        ui.page_downloads("fund")
        return
    st.subheader("Payment in lieu")
    unit = a.options.get("value_unit", "USD")  # USD/yr on the annual basis
    c = st.columns(3)  # three equal columns: each figure keeps the width the headline check measures
    ui.money_metric(c[0], "Payment in lieu to the Tree Preservation Fund (USD, §208-24)", fund.fund_in_lieu_usd)
    c[1].metric("Trees paid in lieu (trees, §208-22D)", ui.num(fund.trees_in_lieu))
    ui.money_metric(c[2], f"Unmet value ({unit}, §208-22D)", fund.unmet_value_usd)
    if fund.alternative_22f_usd is not None:
        ui.alternative_22f(st.columns(3)[0], a)
    if fund.trees_in_lieu == 0 and state.opt("plantable") is None and state.opt("plantable_area_sqft") is None:
        st.caption(
            "Every needed tree is planted (no limit on the planting space is set above): nothing is paid in lieu."
        )
    if fund.calculation:
        st.markdown(f"**Calculation:** {fund.calculation} ({fund.section})")
    for n in fund.notes:
        st.markdown(f"- {n}")
    table = views.fund_table(fund, a)
    with st.expander("All fund figures"):
        st.dataframe(table, width="stretch", hide_index=True)
    ui.page_downloads("fund", {"Fund": table})
    printable.pdf_button("fund")  # the printable report (PDF) of this page's figures


ui.run_page(
    "Fund & fee schedule",
    body,
    caption="§208-24C: the Board sets the basis of payments in lieu; the Engineer keeps it here.",
    law=True,
)
