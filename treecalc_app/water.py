"""Water bill: late-payment penalties and relevy (§223-12F), meter accuracy test (§223-6G)."""

from __future__ import annotations

import datetime as dt

import pandas as pd
import streamlit as st

from app_support import lib, ui


def _schedule() -> pd.DataFrame | None:
    water = lib.piece("water")
    st.subheader("Late payment (§223-12F)")
    c1, c2, c3 = st.columns(3)
    amount = c1.number_input("Water charge on the bill (USD)", min_value=0.0, value=300.0, step=10.0,
                             format="%.2f", key="w_water_amount")
    due = c2.date_input("Due date", value=dt.date(2026, 1, 15), key="w_water_due")
    as_of = c3.date_input("Balance as of", value=max(dt.date.today(), due), key="w_water_asof")
    st.caption("Payments received (date and amount); add rows as needed.")
    payments = st.data_editor(
        pd.DataFrame({"date": pd.Series([], dtype="object"), "amount_usd": pd.Series([], dtype=float)}),
        num_rows="dynamic", key="w_water_payments", hide_index=True, width="stretch",
        column_config={"date": st.column_config.DateColumn("Date", required=True),
                       "amount_usd": st.column_config.NumberColumn("Amount (USD)", min_value=0.01, format="$%.2f",
                                                                   required=True)})
    pays = [(r.date, f"{float(r.amount_usd):.2f}") for r in payments.dropna().itertuples()]
    if as_of < due:
        st.error("The balance date is before the due date: nothing is owed before the due date (§223-12F(1)(a)).")
        return None
    try:
        s = water.penalty_schedule(f"{amount:.2f}", due, pays, as_of=as_of)
    except ValueError as e:
        st.error(str(e))
        return None
    c = st.columns(3)
    c[0].metric("Charge outstanding", ui.usd(s.charge_outstanding, cents=True))
    c[1].metric("Penalties outstanding", ui.usd(s.penalties_outstanding, cents=True))
    c[2].metric("Total due", ui.usd(s.total_due, cents=True))
    c = st.columns(3)
    c[0].metric("Penalties assessed", ui.usd(s.penalties_assessed, cents=True))
    c[1].metric("Relevied to the tax bill", ui.usd(s.relevy_amount, cents=True) if s.relevy_amount is not None
                else "—", help=f"on {s.relevy_date.isoformat()}" if s.relevy_date else None)
    c[2].metric("Relevy date", (s.relevy_date or s.scheduled_relevy_date or "—").__str__(),
                help="15 April: water rents and penalties more than 60 days overdue go to the Village tax bill")
    if s.credit:
        st.info(f"Credit on the account: {ui.usd(s.credit, cents=True)}")
    events = pd.DataFrame(s.to_dict()["events"])
    st.markdown("**Events**")
    if len(events):
        st.dataframe(events, width="stretch", hide_index=True)
    else:
        st.caption("No penalty, payment or relevy by that date.")
    with st.expander("How §223-12F is read"):
        for line in [*s.interpretation, *s.notes]:
            st.markdown(f"- {line}")
    return events


def _meter() -> pd.DataFrame | None:
    water = lib.piece("water")
    st.subheader("Meter accuracy test (§223-6G)")
    c1, c2, c3 = st.columns(3)
    billed = c1.number_input("Billed consumption, tested period", min_value=0.0, value=12_000.0, step=100.0,
                             key="w_meter_billed", help="In the bill's unit (cubic feet or gallons).")
    err = c2.number_input("Registration error (%)", min_value=-99.0, max_value=1000.0, value=2.0, step=0.1,
                          key="w_meter_error", help="Positive: the meter over-registers.")
    fee = c3.number_input("Test fee paid (USD)", min_value=0.0, value=50.0, step=5.0, key="w_meter_fee")
    try:
        r = water.meter_test(f"{billed}", f"{err}", f"{fee:.2f}")
    except ValueError as e:
        st.error(str(e))
        return None
    c = st.columns(3)
    c[0].metric("Bill adjusted", "Yes" if r.adjusted else "No")
    c[1].metric("Adjusted consumption", f"{float(r.adjusted_consumption):,.2f}",
                help=f"change {float(r.consumption_change):+,.2f}; tested period only")
    c[2].metric("Test fee refunded", ui.usd(r.fee_refund, cents=True) if r.fee_refunded else "No")
    for n in r.notes:
        st.caption(f"• {n}")
    return pd.DataFrame([r.to_dict()]).drop(columns=["notes"])


def body() -> None:
    if not ui.need("water"):
        return
    events = _schedule()
    st.divider()
    meter = _meter()
    ui.page_downloads("water", {"Water bill events": events, "Meter test": meter})


ui.run_page("Water bill", body, caption="Croton-on-Hudson Chapter 223: what a late water bill owes today.")
