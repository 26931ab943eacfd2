"""The Cases page's corrections: a form recorded once however often it is sent, and an entry voided with a reason.

Each form drawn carries its own key in a field the page hides (the key travels with the form in the browser): a
double click, or the same form sent again before the page was drawn anew, sends the same key, and the register
records the entry once and gives back the first (:func:`treecalc.register.voids.keep_once`). A new key is drawn
only once the form's key has recorded its entry and the page is drawn again without the form being sent.

Voids are the register's (:func:`treecalc.register.corrections.void`): the page lists what may be voided and shows
each void beside the entry it voids; the register checks the role and the reason again.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Callable
from typing import Any

import streamlit as st

#: the entries of a case that can be voided, as the case lists them
LISTS = {"payment": "payments", "planting": "plantings", "decision": "decisions", "bond": "bonds"}


def form_key(form: str) -> str:
    """The key of the form ``form`` as drawn now (call inside the form): kept while the form is being sent, new
    once its key has recorded an entry (:func:`recorded`)."""
    field = f"{form}_key"
    sending = bool(st.session_state.get(f"{form}_submit"))  # this run is the form sent (its button's state)
    if field not in st.session_state or (
        st.session_state[field] == st.session_state.get(f"{form}_used") and not sending
    ):
        st.session_state[field] = secrets.token_urlsafe(18)
    st.html(f"<style>.st-key-{field} {{display: none}}</style>")
    return str(st.text_input("Form key", key=field, label_visibility="collapsed"))


def recorded(form: str, key: str, entry_id: Any) -> Any:
    """``entry_id`` recorded by the form's ``key``: the next drawing of the form gets a new key."""
    st.session_state[f"{form}_used"] = key
    return entry_id


def voided_words(e: dict[str, Any]) -> str:
    v = e.get("voided")
    return "" if not v else f"voided on {v['date']} (void {v['void']}: {v['reason']})"


def table_rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A case's entries for a table: the void (if any) in words, not a nested object."""
    return [{**r, "voided": voided_words(r)} for r in rows]


def may_void(role: str, kind: str | None = None) -> bool:
    """Whether ``role`` may void some entry (``kind`` None) or an entry of ``kind``: the role that records it."""
    from treecalc.register import roles  # heavy: sqlalchemy, loaded only when this runs

    if kind is None:
        return roles.may(role, "void") or roles.may(role, "void_ruling")
    return roles.may(role, roles.act_of(f"{kind} voided"))


def void_fields(reg: Any, c: dict[str, Any], by: str, role: str) -> Callable[[], object]:
    """The void form's fields (an entry of the case not voided yet that ``role`` may void, the reason, the date);
    what submitting does."""
    from treecalc.register.corrections import void  # heavy: sqlalchemy, loaded only when this runs

    choices = [
        (k, e["id"]) for k, name in LISTS.items() if may_void(role, k) for e in c.get(name) or [] if not e.get("voided")
    ]
    pick = st.selectbox(
        "Entry", choices, key="w_void_entry", format_func=lambda p: f"{p[0]} {p[1]}", index=None, placeholder="Choose"
    )
    reason = st.text_input("Reason (kept with the void)", key="w_void_reason")
    day = st.date_input("Voided from", value=dt.date.today(), key="w_void_date")

    def go() -> object:
        if pick is None:
            raise ValueError("Choose the entry to void.")
        return void(reg, pick[0], pick[1], by=by, reason=reason, on=day)

    return go


def reversals(led: dict[str, Any]) -> None:
    """The Fund ledger's receipts reversed in its period (voids of payments and forfeited bonds)."""
    import pandas as pd  # heavy: pandas, loaded only when this runs

    if led.get("reversals"):
        st.markdown(
            "**Receipts reversed** (entries voided: the receipt stays in its month, its reversal in the void's)"
        )
        st.dataframe(pd.DataFrame(led["reversals"]), hide_index=True, width="stretch")
