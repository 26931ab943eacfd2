"""Fund & fee schedule: §208-24C payments in lieu into the Tree Preservation Fund.

The schedule is the Village's, kept in the register: every visitor sees the one in force and its history; an
engineer signed in records the Board's next one; no one else has a control (a fee set in one browser only was
charged in that browser only)."""

from __future__ import annotations

import datetime as dt
import os
from typing import Any

import streamlit as st

from treecalc.app import (
    cases,
    printable,  # the PDF report
    state,
    ui,
    views,
)
from treecalc.law import LawNotInForce
from treecalc.law.registry import with_section
from treecalc.quantities import RANGES
from treecalc.register import db, fees
from treecalc.rules.croton_on_hudson.schedule import fee_schedule_toml, schedule_in_force

#: The provisions of the law the page cites (their sections read from the law, never retyped)
FEE, IN_LIEU, FUND = "sections.fee_schedule", "sections.in_lieu", "sections.fund"


def _in_force() -> dict[str, Any]:
    """The schedule every assessment charges today: the register's in force (a Board resolution the Engineer
    recorded), else the data folder's (its placeholder said)."""
    # late-bound: DEFAULT_FEE_SCHEDULE looked up when called
    from treecalc.law.access import DEFAULT_FEE_SCHEDULE, read_toml

    village = state.village_schedule()
    if village is not None:
        return village
    held = read_toml(DEFAULT_FEE_SCHEDULE)
    try:
        raw, when = schedule_in_force(held, str(DEFAULT_FEE_SCHEDULE), dt.date.today())
    except LawNotInForce:
        raw, when = schedule_in_force(held, str(DEFAULT_FEE_SCHEDULE), None)
    return {**raw, **({"resolution_date": when.isoformat()} if when else {})}


def _charge(s: dict[str, Any]) -> str:
    if str(s.get("basis", "per_tree")) == "per_tree":
        return f"{ui.usd(float(s.get('fee_per_tree_usd') or 0), cents=True)} for each replacement tree not planted"
    return f"the value of the trees not planted ({s.get('value_basis') or 'appraised'}) × {s.get('multiplier') or 1}"


def _record_form() -> None:
    """An engineer records the Board's new schedule in the register (the register checks the role again)."""
    who = cases.user()
    assert who is not None
    with st.form("w_fee_record"):
        st.markdown(f"**Record a schedule the Board set ({views.cite(FEE)})**: the schedules recorded before are kept.")
        c1, c2, c3 = st.columns(3)
        basis = c1.radio(
            "Basis of payments in lieu",
            ["per_tree", "value"],
            key="w_fee_basis",
            horizontal=True,
            format_func={"per_tree": "A fee per tree", "value": "The unmet value"}.get,
        )
        fee = c2.number_input(
            "Fee per tree (USD)",
            # a fee of $0 is no fee schedule at all (the assessment refuses it): the widget cannot go there
            min_value=0.01,
            max_value=float(RANGES["usd"].high),  # the range of --fee-per-tree (units.RANGES)
            step=25.0,
            value=450.0,
            key="w_fee_per_tree",
        )
        mult = c3.number_input(
            "Multiplier of the unmet value",
            min_value=0.0,
            max_value=float(RANGES["multiplier"].high),
            step=0.1,
            value=1.0,
            key="w_fee_multiplier",
        )
        d1, d2 = st.columns(2)
        when = d1.date_input("Date of the Board resolution", value=dt.date.today(), key="w_fee_resolution_date")
        ref = d2.text_input("Resolution (number or reference)", key="w_fee_resolution", max_chars=200)
        go = st.form_submit_button("Record the schedule")
    if go:
        try:
            fees.record(
                cases.register(),
                by=who[0],
                resolution_date=when,
                basis=basis,
                fee_per_tree_usd=f"{fee:.2f}" if basis == "per_tree" else None,
                multiplier=f"{mult:g}" if basis == "value" else None,
                resolution=ref,
            )
        except ValueError as e:
            st.error(views.readable(str(e)))
            return
        st.success(f"Recorded: the schedule of the Board resolution of {when.isoformat()}.")
        st.rerun()


def _schedule_section() -> dict[str, Any]:
    """The schedule in force (every visitor), its history (the register's), and the record form (an engineer)."""
    now = _in_force()
    st.markdown(f"**In force today:** {_charge(now)}, {now.get('label') or 'fee schedule'}.")
    if now.get("placeholder"):
        st.warning(f"The fee is a placeholder until the Board sets it ({views.cite(FEE)}); every output says so.")
    if not _register_known():
        return now
    rows = fees.history(cases.register())
    if rows:
        st.dataframe(
            [
                {
                    "Resolution": r["resolution"] or "",
                    "Date": r["resolution_date"],
                    "Basis": _charge(r),
                    "Recorded by": r["recorded_by"],
                    "Recorded": r["recorded_at"][:10],
                }
                for r in rows
            ],
            hide_index=True,
            key="w_fee_history",
        )
    who = cases.user()
    if cases.may("fee_schedule"):
        _record_form()
    elif who is not None:
        st.caption(f"Read-only: an account of the {fees.ROLE} role records the Board's schedule ({views.cite(FEE)}).")
    return now


def _register_known() -> bool:
    return bool(os.environ.get(db.ENV)) or db.default_path().is_file() or cases.user() is not None


def _has_schedule(rec: Any) -> bool:
    """Whether the law charges payments in lieu by the Village's fee schedule (a Board resolution recorded in the
    register): a law whose own table sets the fee has none to show or record."""
    return "fee_schedule" in rec.options


def _caption() -> str | None:
    """The page's caption: the fee schedule's section, under the law that has one."""
    if not _has_schedule(views.survey_record()):
        return None
    return f"{views.cite(FEE)}: the Board sets the basis of payments in lieu; the Engineer records it in the register."


def body() -> None:
    rec = views.survey_record()
    if _has_schedule(rec):
        st.subheader("Fee schedule")
        schedule = _schedule_section()
        st.download_button(
            "Fee schedule (TOML)",
            data=fee_schedule_toml({k: v for k, v in schedule.items() if k != "source"}).encode(),
            file_name="fee_schedule.toml",
            mime="application/toml",
            key="fund_toml",
            on_click="ignore",
            icon=":material/download:",
            help="The schedule in force, as a file: keep it with the Village's records.",
        )
    if views.replaces(rec) and views.prices_stock(rec):  # a law without replacement (Chapter 95) has no fund
        st.subheader("Planting space on the site")
        st.caption(
            "The same setting as on the Permit page: the fund is paid for the replacement trees the site "
            f"cannot take ({views.cite(IN_LIEU)})."
        )
        views.plantable_controls()
        views.basis_control("fund")  # the unmet value and a payment on the value are on this basis
    elif views.replaces(rec):  # a count of trees by class: the table's fee for each tree not planted
        st.subheader("Planting space on the site")
        st.caption("The same setting as on the Permit page: the payment in lieu is for the trees the site cannot take.")
        views.plantable_controls(rec)
    with st.spinner("Assessing the survey…"):
        a = state.assessment()
    ui.jurisdiction_note(a, basis=views.prices_stock(views.record(a)))
    fund = a.fund
    rec = views.record(a)
    if not views.prices_stock(rec) and views.replaces(rec):
        _count_payment(a)
        return
    if not rec.fund_name:
        funded = with_section("fund")[0]  # the law with a fund, whose fee schedule the page shows
        st.info(
            f"{rec.chapter} has no tree fund and no payment in lieu: the fee schedule above is "
            f"{views.place(funded)}'s ({views.cite(FEE)}) and does not apply."
        )
        ui.page_downloads("fund")
        return
    st.subheader("Payment in lieu")
    unit = a.options.get("value_unit", "USD")  # USD/yr on the annual basis
    c = st.columns(3)  # three equal columns: each figure keeps the width the headline check measures
    ui.money_row(
        [c[0], c[2]],
        [
            (
                f"Payment in lieu to the Tree Preservation Fund (USD, {views.cite(FUND, a)})",
                fund.fund_in_lieu_usd,
                None,
            ),
            (f"Unmet value ({unit}, {views.cite(IN_LIEU, a)})", fund.unmet_value_usd, None),
        ],
    )
    c[1].metric(f"Trees paid in lieu (trees, {views.cite(IN_LIEU, a)})", ui.num(fund.trees_in_lieu))
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


def _count_payment(a: Any) -> None:
    """The payment in lieu under a law counting replacement trees by class: the table's fee for each tree not
    planted, with the fund it goes into (named, or said not held), each figure with its section; a figure not
    given says why, never $0.00."""
    rep, fund = a.replacement, a.fund
    s = views.parts(views.record(a), a)
    paid = s.get("fund") or s["replacement"]
    st.subheader(f"Payment in lieu ({paid})")
    c = st.columns(3)
    ui.money_row(
        c[:1],
        [(f"Payment in lieu (USD, {paid})", fund.fund_in_lieu_usd, "The table's fee for each tree not planted.")],
    )
    c[1].metric(
        f"Trees paid for in lieu (trees, {paid})",
        "not given" if fund.trees_in_lieu is None else ui.num(fund.trees_in_lieu),
    )
    if fund.not_held is not None:
        c[2].metric(f"Fund paid into ({fund.not_held.section})", "Not held", help=str(fund.not_held))
    else:
        c[2].metric(f"Fund paid into ({paid})", views.record(a).fund_name or "—")
    if rep.trees_needed is None:
        st.warning("No payment is given: the text read leaves a tree undecided (the Permit page names it).")
    elif fund.fund_in_lieu_usd is None:
        st.caption(
            "Set the trees the site can take above: the payment is the table's fee for each tree it cannot take."
        )
    classes = [ln for ln in a.lines if ln.get("item") == "Trees removed in the class"]
    if classes:
        st.markdown("**The table's fees**")
        for ln in classes:
            st.markdown(f"- {ln['section']}: {ln['note']} ({ui.num(ln['value'])} removed)")
    for n in fund.notes:
        st.markdown(f"- {views.readable(n)}")
    table = views.fund_table(fund, a)
    table = table[table["Item"] != views.FUND_ITEMS["label"]]  # the fund's name (above), not a fee schedule
    with st.expander("All fund figures"):
        st.dataframe(table, width="stretch", hide_index=True)
    ui.page_downloads("fund", {"Fund": table})
    printable.pdf_button("fund")  # the printable report (PDF) of this page's figures


ui.run_page("Fund & fee schedule", body, caption=_caption, law=True)
