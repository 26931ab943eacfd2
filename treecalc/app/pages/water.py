"""Water account: late-payment penalties and relevy (§223-12F), meter accuracy test (§223-6G)."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import pandas as pd
import streamlit as st

from treecalc.app import ui
from treecalc.law.numbers import law_on
from treecalc.law.registry import with_chapter
from treecalc.rules.croton_on_hudson import ch223_meter as meter
from treecalc.rules.croton_on_hudson import ch223_water as water

if TYPE_CHECKING:
    from collections.abc import Sequence

    from streamlit.delta_generator import DeltaGenerator

MONTHS = {
    "anniversary": "Counted from the day after the due date (16 Jan, 16 Feb, ...)",
    "calendar": "First of each calendar month (16 Jan, 1 Feb, 1 Mar, ...)",
}


#: The water page shows cents in full up to $999,999.99 (and -$999,999.99), then compact ($2.57M): its figures
#: are a bill's, read to the cent
WATER_CHARS = len("-$999,999.99")


def money_metric(col: Any, label: str, value: Any, help: str | None = None) -> None:
    """A metric in dollars (:func:`treecalc.app.ui.money_metric`): to the cent, compact past $999,999.99."""
    ui.money_metric(col, label, value, cents=True, help=help, max_chars=WATER_CHARS)


def _bills(due_default: dt.date) -> list[tuple[str, dt.date, str]]:
    c1, c2 = st.columns(2)
    amount = ui.number_field(c1, "Water charge on the bill (USD)", "usd", 300.0, 10.0, "w_water_amount", format="%.2f")
    due = c2.date_input("Due date", value=due_default, key="w_water_due")
    bills = [(f"{amount:.2f}", due, "bill 1")]
    with st.expander("More bills on this account"):
        st.caption("Payments go to the oldest bill first: its penalties, then its charge, then the next bill.")
        more = _dated_amounts("w_water_bills", "Due date", "Water charge (USD)", min_usd=0.0, column="due")
        for i, (day, usd) in enumerate(more, start=2):
            bills.append((usd, day, f"bill {i}"))
    return bills


def _dated_amounts(
    key: str, date_label: str, amount_label: str, *, min_usd: float, column: str = "date"
) -> list[tuple[Any, str]]:
    """An editable table of (date, dollar amount) rows, added as needed (``column`` names the date column
    in the widget's state): the complete rows as (date, amount to the cent as text)."""
    table = st.data_editor(
        pd.DataFrame({column: pd.Series([], dtype="object"), "amount_usd": pd.Series([], dtype=float)}),
        num_rows="dynamic",
        key=key,
        hide_index=True,
        width="stretch",
        column_config={
            # not required=True: the browser holds back a new row with a required cell empty, so a payment
            # typed without its amount would never reach the app; it is refused below instead
            column: st.column_config.DateColumn(date_label),
            "amount_usd": st.column_config.NumberColumn(amount_label, min_value=min_usd, max_value=1e9, format="$%.2f"),
        },
    )
    blank = table.isna()
    part = blank.any(axis=1) & ~blank.all(axis=1)  # a row begun but not finished: refused, never dropped
    if part.any():
        for i in [int(x) for x in table.index[part]]:
            has, lacks = ("a date", "no amount") if blank.at[i, "amount_usd"] else ("an amount", "no date")
            st.error(
                f"{amount_label.split(' (')[0]}, row {i + 1}: {has} and {lacks}. It is not dropped: give "
                f"its {lacks[3:]}, or delete the row."
            )
        raise Incomplete(f"{key}: {int(part.sum())} incomplete row(s)")
    rows = table.dropna()
    return [(pd.Timestamp(d).date(), f"{float(a):.2f}") for d, a in zip(rows[column], rows["amount_usd"])]


class Incomplete(ValueError):
    """A table row with a date and no amount (or an amount and no date): the figures wait for it."""


def _events_table(events: list[Any]) -> pd.DataFrame:
    rows = [
        {
            "Date": e.date,
            "Bill": e.bill or "—",
            "Event": e.kind,
            "Amount (USD)": float(e.amount),
            "Charge after": float(e.charge_after),
            "Penalties after": float(e.penalties_after),
            "On the tax bill after": float(e.relevied_after),
            "Credit after": float(e.credit_after),
            "Section": e.section,
            "What": e.description,
        }
        for e in events
    ]
    return pd.DataFrame(rows)


def _schedule() -> pd.DataFrame | None:
    # the sections are the law file's entries and records (data/law/croton_on_hudson/ch223_water.toml)
    monthly = water.LAW["monthly_penalty_rate"].section
    whole = monthly.split("(")[0]  # the section the paragraph is of
    st.subheader(f"Late payment ({whole})")
    try:
        bills = _bills(dt.date(2026, 1, 15))
    except Incomplete:
        st.warning("The balance is worked out once every bill row has its due date and charge.")
        return None
    c1, c2 = st.columns(2)
    due = min(b[1] for b in bills)
    as_of = c1.date_input("Balance as of", value=max(dt.date.today(), due), key="w_water_asof")
    months = c2.radio(
        f"Each succeeding month ({monthly})",
        list(MONTHS),
        format_func=MONTHS.get,
        key="w_water_months",
        help="How 'each succeeding month or any portion thereof' is counted.",
    )
    st.caption("Payments received (date and amount); add rows as needed.")
    try:
        pays = _dated_amounts("w_water_payments", "Date", "Amount paid (USD)", min_usd=0.01)
    except Incomplete:
        st.warning("The balance is worked out once every payment row has its date and amount.")
        return None
    if as_of < due:  # an answer, as the library and the command line give it: no penalty yet
        with law_on(due):  # the provision in force on the bill's due date
            no_penalty = water.LAW.provision("no_penalty")
        st.info(f"Not yet late on {as_of}: the bill is due {due}; no penalty before the due date ({no_penalty}).")
    try:
        s = water.account_statement(bills, pays, as_of=as_of, months=months)
    except ValueError as e:
        st.error(str(e))
        return None
    relevied = [b for b in s.bills if b.relevy_date]
    total_owed = getattr(s, "total_owed", None)  # the water account and the tax bill together, when given
    c: Sequence[DeltaGenerator] = st.columns(
        3 if total_owed is not None else 2
    )  # the two amounts owed side by side, the same size
    money_metric(c[0], "Total due", s.total_due, help="What the water account owes; paying it closes the account.")
    money_metric(
        c[1],
        "Still owed on the tax bill",
        s.relevy_outstanding if relevied else 0,
        help=f"Relevied to the Village tax bill ({whole}): owed there, not on the water account. "
        + (
            "; ".join(f"{b.bill}: {b.relevy_amount} relevied on {b.relevy_date}" for b in relevied)
            or "Nothing relevied."
        ),
    )
    if total_owed is not None:
        money_metric(c[2], "Total owed (water account + tax bill)", total_owed)
    c = st.columns(3)  # three amounts to the cent; the relevy date on a row of its own (a fourth column cut it off)
    money_metric(c[0], "Charge outstanding", s.charge_outstanding)
    money_metric(c[1], "Penalties outstanding", s.penalties_outstanding)
    money_metric(
        c[2], "Penalties assessed", s.penalties_assessed, help="Each penalty rounded to the cent when assessed."
    )
    nxt = [d for b in s.bills if (d := b.relevy_date or b.scheduled_relevy_date)]
    st.metric(
        "Relevy date",
        str(min(nxt)) if nxt else "—",
        # the day and the days overdue are the law's entries (data/law/croton_on_hudson/ch223_water.toml)
        help=f"{water.RELEVY_DAY} {water.RELEVY_MONTH_NAME} ({water.LAW['relevy_overdue_days'].section}): water "
        f"rents and penalties {water.relevy_overdue_words()} go to the Village tax bill",
    )
    if s.credit:
        st.info(f"Credit on the account: {ui.usd(s.credit, cents=True)}")
    if len(s.bills) > 1:
        st.dataframe(
            pd.DataFrame(
                [
                    {
                        "Bill": b.bill,
                        "Due": b.due_date,
                        "Charge (USD)": float(b.amount),
                        "Total due (USD)": float(b.total_due),
                        "On the tax bill (USD)": float(b.relevy_outstanding),
                        "Total owed (USD)": float(b.total_owed),
                    }
                    for b in s.bills
                ]
            ),
            width="stretch",
            hide_index=True,
        )
    events = _events_table(s.events)
    st.markdown("**Events**")
    if len(events):
        st.dataframe(
            events,
            width="stretch",
            hide_index=True,
            column_config={
                k: st.column_config.NumberColumn(format="$%.2f")
                for k in events.columns
                if "USD" in k or k.endswith("after")
            },
        )
    else:
        st.caption("No penalty, payment or relevy by that date.")
    with st.expander(f"How {whole} is read"):
        for line in [*s.interpretation, *s.notes]:
            st.markdown(f"- {line}")
    return events


UNIT_HELP = "In the bill's unit (cubic feet or gallons)."
ERROR_HELP = "Positive: the meter over-registers."
RATE_HELP = "0: no dollar figures."


def _meter() -> pd.DataFrame | None:
    st.subheader(f"Meter accuracy test ({meter.LAW['meter_tolerance'].section})")
    c1, c2, c3 = st.columns(3)
    billed = ui.number_field(
        c1, "Billed consumption, tested period", (0.0, 1e12), 12_000.0, 100.0, "w_meter_billed", help=UNIT_HELP
    )
    err = ui.number_field(
        c2, "Registration error, first flow rate (%)", (-99.0, 1000.0), 2.0, 0.1, "w_meter_error", help=ERROR_HELP
    )
    more = c3.text_input(
        "Other flow-rate results (%)",
        key="w_meter_more",
        placeholder="e.g. 1.8, 2.4",
        help="The test's other results, separated by spaces, ';' or ', '; decimals with a point; all are averaged.",
    )
    c1, c2 = st.columns(2)
    fee = ui.number_field(c1, "Test fee paid (USD)", (0.0, 1e6), 50.0, 5.0, "w_meter_fee")
    rate = ui.number_field(
        c2, "Water rate (USD per unit), optional", (0.0, 1e4), 0.0, 0.001, "w_meter_rate", format="%.4f", help=RATE_HELP
    )
    # separated by spaces, ';' or ', ' -- a comma between digits ("1,8") is a decimal comma and is refused
    results = [f"{err}"] + [b.rstrip(",") for b in re.split(r"[;\s]+", more.strip()) if b.rstrip(",")]
    try:
        r = meter.meter_test(f"{billed}", results, f"{fee:.2f}", f"{rate}" if rate else None)
    except ValueError as e:
        st.error(str(e))
        return None
    c = st.columns(4)
    c[0].metric(
        "Bill adjusted",
        "Yes" if r.adjusted else "No",
        help=f"Average error {r.registration_error_pct.quantize(Decimal('0.01')):+}% (limit ±{r.tolerance_pct.normalize():f}%)",
    )
    c[1].metric(
        "Adjusted consumption",
        f"{r.adjusted_consumption:,.2f}",
        help=f"change {r.consumption_change:+,.2f}; tested period only",
    )
    money_metric(
        c[2],
        "Corrected bill",
        r.corrected_usd,
        help=None if r.corrected_usd is None else f"billed {r.billed_usd}, change {r.bill_change_usd:+}",
    )
    c[3].metric("Test fee refunded", ui.usd(r.fee_refund, cents=True) if r.fee_refunded else "No")
    _meter_change(r)
    for n in r.notes:
        st.caption(f"• {n}")
    d = r.to_dict()
    d["results_pct"] = ", ".join(d["results_pct"])
    return pd.DataFrame([d]).drop(columns=["notes"])


def _signed_usd(x: Decimal) -> str:
    """A change in dollars with its sign: "+$1.18", "-$7.13", "$0.00"."""
    return ("+" if x > 0 else "") + ui.usd(x, cents=True)


def _meter_change(r) -> None:
    """What the test changes, beside what was billed (the lines of ``treecalc water meter-test``): the consumption
    billed and corrected, and, with a rate, the original bill, the corrected bill and the change. A corrected bill
    alone left the reader to find the original and work out the difference."""
    rows = [
        ("Consumption billed", f"{r.billed_consumption:,.2f}"),
        ("Corrected consumption", f"{r.adjusted_consumption:,.2f}"),
        ("Change in consumption", f"{r.consumption_change:+,.2f}"),
    ]
    if r.corrected_usd is not None and r.billed_usd is not None and r.bill_change_usd is not None:
        rows += [
            (f"Original bill (at ${r.rate_usd} per unit)", ui.usd(r.billed_usd, cents=True)),
            ("Corrected bill", ui.usd(r.corrected_usd, cents=True)),
            ("Change in the bill", _signed_usd(r.bill_change_usd)),
        ]
    # a plain table (text, not a canvas): six short rows a phone shows whole and a screen reader reads
    st.table(pd.DataFrame(rows, columns=["Meter test", "Amount"]).set_index("Meter test"))


def body() -> None:
    events = _schedule()
    st.divider()
    meter = _meter()
    # This page's own tables only: the tree statement and the assessed trees belong to the tree pages.
    ui.downloads({"Water account events": events, "Meter test": meter}, key="water", statement=False)


ui.run_page(
    "Water bill",
    body,
    caption=f"{' and '.join(r.chapters['water'] for r in with_chapter('water'))}: what a late water bill owes today.",
)
