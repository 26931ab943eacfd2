"""Cases: the Village's register of permits, violations and Tree Preservation Fund payments.

Staff sign in (accounts: ``treecalc user add``); an applicant's link (the full address ``…/cases?case=TOKEN``,
also opened from the root) shows one case, read-only, without sign-in. Everything shown is what :class:`treecalc.register.Register` returns.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pandas as pd
import streamlit as st

from treecalc.app import case_survey, cases, corrections, links, state, ui, views
from treecalc.register import links as shared
from treecalc.register.decisions import decide_penalty

#: The warranty's entry and the hold's provision the register's pages cite (their sections read from the law)
WARRANTY, HOLD = "replacement.warranty_years", "sections.no_building_permit"


def _usd(v: str | None) -> str:
    return "—" if v is None else ui.usd(float(v), cents=True)


def _case_view(c: dict, *, applicant: bool = False) -> None:
    st.subheader(f"Case {c['id']}: {c['title']}")
    st.caption(
        f"{c['kind_words'].capitalize()}"
        + (f" · {c['address']}" if c.get("address") else "")
        + (f" · lot {c['lot']}" if c.get("lot") else "")
        + f" · opened {c['opened_at'][:10]}"
    )
    m1, m2, m3, m4 = st.columns(4)
    m1.metric("Payment in lieu assessed", _usd(c["fund_in_lieu_usd"]))
    m2.metric("Civil penalty assessed", _usd(c["civil_penalty"]["amount_usd"]))
    m3.metric("Paid into the Fund", _usd(c["paid_usd"]))
    m4.metric("Balance", _usd(c["balance_usd"]))
    if c["surveys"]:
        st.markdown("**Survey:** " + ", ".join(ui.md_text(s["name"]) for s in c["surveys"]))
    st.markdown(f"**Decision:** {c['decision'] or 'none yet'}")
    _owed(c)
    if c["holding_certificates"]:
        st.warning(f"An open violation holds building permits and certificates of occupancy ({views.cite(HOLD)}).")
    if c["payments"]:
        st.markdown("**Payments**")
        st.dataframe(views.record_table(corrections.table_rows(c["payments"])), hide_index=True, width="stretch")
    if c["plantings"]:
        st.markdown(
            f"**Replacement plantings** (each inspected when its {views.cite(WARRANTY)} warranty ends: *warranty*)"
        )
        st.dataframe(views.record_table(corrections.table_rows(c["plantings"])), hide_index=True, width="stretch")
    if not applicant:
        for what in ("bonds", "holds", "decisions", "notes"):
            if c[what]:
                st.markdown(f"**{what.capitalize()}**")
                st.dataframe(views.record_table(corrections.table_rows(c[what])), hide_index=True, width="stretch")
    if c["voids"]:  # each entry voided stays listed above; its void, with the reason, here
        st.markdown("**Voided entries** (kept in the record; they no longer count)")
        st.dataframe(views.record_table(c["voids"]), hide_index=True, width="stretch")
    for r in c["readings"]:  # how the law was read where the case's dates and receipts rest on it
        st.caption(f"Reading: {r['reading']}")
    if not applicant and c["assessment"] and c["assessment"]["survey_sha256"]:
        if st.button("Open this case's survey in the calculator", key="w_case_reopen"):
            case_survey.reopen(int(c["id"]))
            st.success(
                f"Case {c['id']}'s survey and options are open in the calculator (Survey, Permit, Violations ...), "
                "read-only."
            )
    if not applicant:
        with st.expander(f"History ({len(c['events'])} events, hash-chained)"):
            st.dataframe(views.record_table(c["events"]), hide_index=True, width="stretch")


def _owed(c: dict) -> None:
    """What the case owes, as ``treecalc case show`` prints it: the civil penalty, the penalties per tree, the
    replacement owed against planted, and the balance line by line."""
    civil = c["civil_penalty"]
    st.markdown(f"**Civil penalty ({civil['section']}):** {ui.md_text(civil['words'])}")
    pen = c["penalties"]
    if pen and pen["trees"]:
        st.markdown(
            f"**Penalties of the assessment** (maxima): civil up to {_usd(pen['civil_max_usd'])}, conditional "
            f"{_usd(pen['civil_conditional_usd'])}; criminal up to {_usd(pen['criminal_max_usd'])}, for a court"
        )
        st.dataframe(views.record_table(pen["trees"]), hide_index=True, width="stretch")
    if c["penalty_decisions"]:
        st.markdown("**The Planning Board's decisions on the civil penalty**")
        st.dataframe(views.record_table(c["penalty_decisions"]), hide_index=True, width="stretch")
    r = c["replacement_owed"]
    if r and r["required"]:
        st.markdown(
            f"**Replacement owed ({r['sections']}):** {r['trees_needed']} trees, {_usd(r['required_value_usd'])} "
            f"{r['value_unit'] or ''} ({r['trees_on_site']} on site, {r['trees_in_lieu']} in lieu). Planted "
            f"{r['trees_planted']} ({_usd(r['value_planted_usd'])} at {_usd(r['value_per_tree_usd'])} a tree); "
            f"{r['trees_still_to_plant']} still to plant"
            + (f"; {r['trees_dead_not_replanted']} dead, not yet replanted" if r["trees_dead_not_replanted"] else "")
            + "."
        )
    if r and r["conditional"]:
        st.caption(r["conditional"])
    st.markdown("**The balance, line by line**")
    rows = [
        {
            "item": ln["item"],
            "section": ln["section"] or "",
            "amount": _usd(ln["usd"]),
            "in the balance": "yes" if ln["in_balance"] else "no",
        }
        for ln in c["balance_lines"]
    ]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def _applicant(token: str) -> None:
    reg = cases.register()
    first = st.session_state.get("tc_case_link_opened") != token  # counted once a session, in its maker's list
    st.session_state["tc_case_link_opened"] = token
    got = shared.open_link(reg, token, count=first)
    if got.link is None or got.link.kind != "case" or got.link.case_id is None:
        st.error(got.why or "This link does not open a case.")
        return
    st.caption("Read-only: the case as the Village has recorded it.")
    _case_view(reg.show(got.link.case_id, events=False), applicant=True)


def _today() -> dt.date:
    return dt.date.today()


def _choose(label: str, codes: list[str], key: str) -> str:
    """One of the register's codes, shown in words (``approved_with_conditions``: "approved with conditions")."""
    return st.selectbox(label, codes, key=key, format_func=lambda k: k.replace("_", " "))


def _open_form() -> None:
    src = state.source()
    st.markdown(f"Opens a case from the survey shown (**{ui.md_text(src.name) if src else 'none'}**) and its options.")
    with st.form("w_case_open"):
        title = st.text_input("Title", value=(src.name.rsplit(".", 1)[0] if src else ""), key="w_case_title")
        kind = _choose("Kind", ["permit_application", "violation", "excavation_permit"], "w_case_kind")
        address = st.text_input("Address", key="w_case_address")
        lot = st.text_input("Lot (section-block-lot)", key="w_case_lot")
        go = st.form_submit_button("Open the case")
    if go:
        cid = cases.open_case(title, kind, address, lot)
        st.session_state["w_case_pick"] = cid
        st.success(f"Case {cid} opened.")


def _action(key: str, title: str, submit: str, fields: Callable[[], Callable[[], object]]) -> None:
    """A register action as a form: ``fields`` draws its inputs and gives the record they make, which is made
    on submit, the page then drawn again from the register."""
    with st.form(key):
        st.markdown(title)
        record = fields()
        if st.form_submit_button(submit, key=f"{key}_submit"):
            record()
            st.rerun()


def _record(c: dict) -> None:
    reg = cases.register()
    who = cases.user()
    assert who is not None
    by = who[0]
    cid = c["id"]

    def pay() -> Callable[[], object]:
        amount = st.text_input("Amount (USD)", key="w_pay_amount")
        day = st.date_input("Date paid", value=_today(), key="w_pay_date")
        ref = st.text_input("Reference (receipt, check)", key="w_pay_ref")
        key = corrections.form_key("w_case_pay")  # one payment per form drawn, however often it is sent
        return lambda: corrections.recorded(
            "w_case_pay", key, reg.pay(cid, by=by, amount=amount, on=day, reference=ref or None, key=key)
        )

    def decide() -> Callable[[], object]:
        outcome = _choose("Outcome", ["approved", "approved_with_conditions", "denied"], "w_dec_outcome")
        conditions = st.text_input("Conditions", key="w_dec_conditions")
        day = st.date_input("Date", value=_today(), key="w_dec_date")
        return lambda: reg.decide(cid, by=by, outcome=outcome, on=day, conditions=conditions or None)

    def penalty() -> Callable[[], object]:
        amount = st.text_input("Civil penalty assessed (USD; 0: released)", key="w_pen_amount")
        day = st.date_input("Date of the decision", value=_today(), key="w_pen_date")
        ref = st.text_input("Reference (the Board's resolution or minutes)", key="w_pen_ref")
        return lambda: decide_penalty(reg, cid, by=by, amount=amount, on=day, reference=ref or None)

    def plant() -> Callable[[], object]:
        trees = st.number_input("Trees", min_value=1, max_value=100_000, step=1, key="w_plant_trees")
        day = st.date_input("Provisional acceptance", value=_today(), key="w_plant_date")
        species = st.text_input("Species", key="w_plant_species")
        return lambda: reg.plant(cid, by=by, trees=int(trees), accepted_on=day, species=species or None)

    def inspect() -> Callable[[], object]:
        pid = st.selectbox("Planting", [p["id"] for p in c["plantings"]], key="w_insp_planting")
        dead = st.number_input("Trees found dead", min_value=0, step=1, key="w_insp_dead")
        day = st.date_input("Date", value=_today(), key="w_insp_date")
        return lambda: reg.inspect(int(pid), by=by, on=day, dead=int(dead))

    if cases.may("pay"):
        _action("w_case_pay", "**Record a payment into the Fund**", "Record the payment", pay)
    if cases.may("decide"):
        _action("w_case_decide", "**Record the decision**", "Record the decision", decide)
    if cases.may("decide") and c["civil_penalty"]["line"]:
        section = c["civil_penalty"]["section"]
        _action("w_case_penalty", f"**Record the Planning Board's civil penalty** ({section})", "Record it", penalty)
    view = case_survey.viewing()
    if cases.may("open") and view is not None and view["case"] == cid and case_survey.changed(view):
        st.markdown("**The calculator's survey and options differ from this case's assessment**")
        if st.button(f"Record them as a new assessment of case {cid}", key="w_case_reassess"):
            case_survey.record_new_assessment(cid, by)
            st.rerun()
    if cases.may("plant"):
        said = f"**Record a replacement planting** ({views.cite(WARRANTY)})"
        _action("w_case_plant", said, "Record the planting", plant)
    if cases.may("inspect") and c["plantings"]:
        _action("w_case_inspect", "**Record an inspection**", "Record the inspection", inspect)
    if corrections.may_void(who[1]):
        _action(
            "w_case_void",
            "**Void an entry** recorded by mistake (it stays in the record, marked voided, with the reason)",
            "Void the entry",
            lambda: corrections.void_fields(reg, c, by, who[1]),
        )
    if cases.may("link"):
        st.markdown("**Applicant's link** (this case only, read-only)")
        if st.button("Make the applicant's link", key="w_case_link"):
            days = links.default_days()
            token = shared.make_link(reg, by=by, kind="case", case_id=cid, days=days)
            expires = shared.open_link(reg, token).link
            # the whole address: pasted anywhere it opens this case (a bare ?case= was pasted onto the root)
            st.code(f"{links.app_root()}/cases?case={token}", language=None)
            st.caption(
                f"Send this address to the applicant. It opens case {cid} read-only until "
                f"{expires.expires_at[:10] if expires is not None else 'it expires'} ({days:g} days) unless revoked; "
                "your links are listed, and revoked, under Share this view in the sidebar."
            )


def _ledgers() -> None:
    reg = cases.register()
    year = st.number_input("Year", min_value=1900, max_value=2200, value=_today().year, step=1, key="w_led_year")
    led = reg.fund_ledger(f"{int(year)}-01-01", f"{int(year)}-12-31")
    st.metric(f"Fund receipts {int(year)}", _usd(led["total_usd"]))
    if led["by_month"]:
        st.dataframe(views.record_table(led["by_month"]), hide_index=True)
    if led["forfeitures"]:
        st.markdown("**Forfeited bonds received into the Fund**")
        st.dataframe(views.record_table(led["forfeitures"]), hide_index=True, width="stretch")
    corrections.reversals(led)
    c1, c2 = st.columns(2)
    start = c1.date_input("Inspections due from", value=_today(), key="w_due_from")
    end = c2.date_input("to", value=_today() + dt.timedelta(days=31), key="w_due_to")
    due = reg.due(start, end)
    st.markdown(f"**Inspections due ({views.cite(WARRANTY)}):** {len(due)}")
    if due:
        st.dataframe(views.record_table(due), hide_index=True, width="stretch")
    holds = reg.holds_open()
    st.markdown(f"**Open violations holding certificates of occupancy ({views.cite(HOLD)}):** {len(holds)}")
    if holds:
        st.dataframe(views.record_table(holds), hide_index=True, width="stretch")
    bonds = reg.bonds_held()
    st.markdown(f"**Bonds held:** {_usd(bonds['total_usd'])}")
    if bonds["bonds"]:
        st.dataframe(views.record_table(bonds["bonds"]), hide_index=True, width="stretch")


def body() -> None:
    try:
        _body()
    except ValueError as e:  # the register's refusals (an amount, a date) name the form's field, in the app's words
        st.error(views.readable(str(e)))


def _body() -> None:
    token = st.query_params.get("case")
    if token:
        _applicant(token)
        return
    cases.sync_cookie()
    who = cases.user()
    if who is None:
        if not cases.has_account():
            cases.first_account_form()
        cases.sign_in_form()
        return
    c1, c2 = st.columns([4, 1])
    c1.caption(f"Signed in as **{ui.md_text(who[0])}** ({who[1]}).")
    if c2.button("Sign out", key="w_sign_out"):
        cases.sign_out()
        st.rerun()
    reg = cases.register()
    if cases.may("open"):
        with st.expander("Open a case from the current survey", expanded=not reg.cases()):
            _open_form()
    rows = reg.cases()
    tab_cases, tab_ledgers = st.tabs(["Cases", "Ledgers and due lists"])
    with tab_cases:
        if not rows:
            st.caption("No cases yet.")
        else:
            st.dataframe(views.record_table(rows), hide_index=True, width="stretch")
            ids = [r["id"] for r in rows]
            pick = st.selectbox(
                "Case",
                ids,
                key="w_case_pick",
                format_func=lambda i: f"{i}: {next(r['title'] for r in rows if r['id'] == i)}",
            )
            c = reg.show(int(pick))
            _case_view(c)
            _record(c)
    with tab_ledgers:
        _ledgers()


ui.run_page("Cases", body, caption="The register: what was assessed, paid, planted and decided, case by case.")
