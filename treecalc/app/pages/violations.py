"""Violations & penalties (the Engineer's view): §208-29 tiers, doubling, criminal maxima."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import streamlit as st

from treecalc.app import (
    picker,
    printable,  # the PDF report
    state,
    ui,
    views,
)
from treecalc.law import cites
from treecalc.law.access import multiplied
from treecalc.rules import rules_module

if TYPE_CHECKING:
    from treecalc.assessment import Assessment
    from treecalc.results import Penalties

TRI = {"As the survey shows": None, "Yes": True, "No": False}
#: The figures of an offence, at the left of its table (in sight at 1,280 px)
OFFENCE_FIRST = ("tag", "tier", "base_usd", "max_usd", "criminal_max_usd", "Offence", "Depends on")


#: The entries of the law the page cites (their sections read from the law, never retyped)
VIOLATION, PERCENT = "replacement.violation_percent", "replacement.percent"
CIVIL, CRIMINAL, DOUBLING = "penalty.civil_tiers", "criminal.per_tree_usd", "penalty.doubling_factor"
CLEAR_CUTTING = "permit.clear_cutting_min_trees"


def _tri(label: str, opt: str, key: str, help: str) -> None:
    """Three states: as the survey shows (the option left out), yes, no."""
    cur = state.opt(opt)
    names = list(TRI)
    idx = next(i for i, v in enumerate(TRI.values()) if v is cur) if cur in (True, False, None) else 0
    v = st.radio(label, names, index=idx, horizontal=True, key=key, help=help)
    state.set_opt(opt, TRI[v])


def _controls() -> Any:
    """The violation facts; returns a placeholder under the violation choice for what is in effect."""
    rec = views.survey_record()
    now = views.law_today(rec.key)  # in force today, the date the app assesses on
    rep, clear = now["replacement"], now["permit"]["clear_cutting_min_trees"]
    times = multiplied(now["penalty"]["doubling_factor"])  # the doubling's "doubled", from the law in force
    f, b7, offence = views.cite(VIOLATION), views.cite(DOUBLING), cites.head(views.cite(CRIMINAL))
    _tri(
        f"Trees were harmed without a permit ({views.place(rec)}'s violation standard, {f})",
        "violation",
        "w_violation",
        "As the survey shows: trees marked removed or damaged without a required permit make it a violation; "
        f"the replacement is then {rep['violation_percent']:g}% of their value ({f}). The {offence} penalties "
        "follow the trees "
        "harmed without a required permit, tree by tree.",
    )
    in_effect = st.empty()
    c1, c2 = st.columns(2)
    with c1:
        _tri(
            "An application was pending",
            "application_pending",
            "w_pending",
            f"{b7}: every per-tree amount {times['es']} when a tree was harmed while an application was pending.",
        )
    with c2:
        _tri(
            "Clear cutting took place",
            "clear_cutting",
            "w_clear_cutting",
            f"{views.cite(CLEAR_CUTTING)}: {clear} or more trees without a permit; {times['es']} the per-tree amounts "
            f"({b7}).",
        )
    c1, c2 = st.columns(2)
    each = f"Each day of a continuing violation is a separate offence ({offence})."
    days = ui.number_field(  # the range of --days
        c1, "Days the violation continued", "days", int(state.opt("continuing_days", 1)), 1, "w_days", help=each
    )
    state.set_opt("continuing_days", None if int(days) == 1 else int(days))
    empty = (
        f"Leave empty for the law's {rep['percent']:g}% (permit) or {rep['violation_percent']:g}% (after a violation)."
    )
    pct = ui.number_field(  # the range of --replacement-percent
        c2,
        "Replacement percentage set by the Village Engineer",
        "percent",
        state.opt("replacement_percent"),
        10.0,
        "w_repl_pct",
        placeholder="the law's",
        help=empty,
    )
    state.set_opt("replacement_percent", pct)
    return in_effect


def _mark_harmed() -> None:
    """Trees the Engineer found harmed (removed or damaged) although the survey says otherwise."""
    sv = state.survey()
    trees = sv.trees
    if not len(trees):
        return
    tags = trees["tag"].astype(str).tolist()
    label = dict(
        zip(
            tags,
            [
                f"{t} · {s} · {d:.1f} in · survey: {a}"
                for t, s, d, a in zip(tags, trees["species"], trees["dbh_in"], trees["action"])
            ],
        )
    )
    picker.tree_picker("removed", "Trees found removed", tags, label)
    picker.tree_picker("damaged", "Trees found damaged (topped, excessively pruned, injured, girdled)", tags, label)
    # when a harmed tree is an offence, as the law applied states it (its rules module's OFFENCE_RULE)
    rule = str(getattr(rules_module(views.survey_record().key), "OFFENCE_RULE", ""))
    if rule:
        st.caption(f"{views.readable(rule[:1].upper() + rule[1:]).rstrip('.')}. The law engine decides, tree by tree.")


def _say_in_effect(where: Any, a: Assessment) -> None:
    """What the numbers use: the violation standard in effect and the trees harmed without a permit."""
    rep, pen = a.replacement, a.penalties
    if not views.replaces(views.record(a)):
        where.caption(
            f"{views.record(a).chapter} has no violation standard for replacement; its fines follow the trees "
            f"removed without a {views.permit_words(views.record(a))}."
        )
        return
    offences = int(pen.offences or 0)
    chosen = state.opt("violation")
    how = "as the survey shows" if chosen is None else "as you set it"
    on = bool(rep.violation)
    if not on and offences and not int(pen.offences_definite or 0):
        _say_conditional(where, a, how)
        return
    where.info(
        f"In effect ({how}): **{'a violation' if on else 'no violation'}** — "
        f"{picker.trees_in_words(offences)} harmed without a required permit ({cites.head(views.cite(CRIMINAL, a))})"
        + _of_which_conditional(pen)
        + ". "
        + f"The replacement standard is {views.cite(VIOLATION if on else PERCENT, a)}.",
        icon=":material/gavel:",
    )


def _of_which_conditional(pen: Penalties) -> str:
    """Words after the count when some offences, not all, rest on a fact not given (", of which 1 conditional")."""
    n = int(pen.offences_conditional or 0)
    if not n or not int(pen.offences_definite or 0):
        return ""
    return f", of which {n:,} conditional (on assumed facts, below)"


def _say_conditional(where: Any, a: Assessment, how: str) -> None:
    """Every offence rests on a fact that was not given: not "no violation" (there may be one) nor "a
    violation" (none is shown): the trees, the facts each rests on and the maxima on those facts."""
    pen = a.penalties
    rows = views.offence_rows(a)
    facts = (
        rows.loc[rows["Offence"] == "conditional", "Depends on"].value_counts(sort=False) if "Offence" in rows else None
    )
    on_what = (
        "; ".join(f"{picker.trees_in_words(int(n))} on {fact or 'a fact not given'}" for fact, n in facts.items())
        if facts is not None and len(facts)
        else "facts that were not given"
    )
    civil, criminal = pen.civil_penalty_conditional_usd, pen.criminal_fine_conditional_usd
    maxima = " and ".join(
        f"{ui.usd(x)} {words}"
        for x, words in (
            (civil, f"civil ({views.cite(CIVIL, a)})"),
            (criminal, f"criminal ({views.cite(CRIMINAL, a)})"),
        )
        if x is not None
    )
    cond_22f = a.replacement.conditional_22f if a.replacement is not None else None
    n = int(pen.offences_conditional or 0)
    where.warning(
        f"In effect ({how}): **conditional offences only** — {picker.trees_in_words(n)} harmed without a "
        f"required permit ({cites.head(views.cite(CRIMINAL, a))}) if facts that were not given are established; none "
        "on the facts given "
        f"alone. They rest on: {on_what}. "
        + (f"On those assumed facts, up to {maxima}, kept apart from the definite amounts. " if maxima else "")
        + f"The replacement standard stays {views.cite(PERCENT, a)}; {views.cite(VIOLATION, a)} would apply once an "
        "offence is established" + (" (below)." if cond_22f else "."),
        icon=":material/help:",
    )


def _times(a: Assessment) -> dict[str, str]:
    """The doubling's factor in words ("doubled", "double", "doubling"), from the law in force today, the date the
    app assesses on."""
    return multiplied(views.law_today(views.record(a).key)["penalty"]["doubling_factor"])


def _fines(a: Assessment) -> bool:
    """A law without replacement (Chapter 95) fines the trees removed; it has no tiers, doubling or criminal
    maxima."""
    return not views.replaces(views.record(a))


def _headline(a: Assessment) -> None:
    pen = a.penalties
    why = {
        "definite": "Definite offences: removals that rest only on facts given.",
        "conditional": "Conditional offences: each rests on a fact that was not given.",
        "civil": f'{views.cite(CIVIL, a)} amounts are maxima ("up to"); definite offences only once conditional '
        "offences are reported apart.",
        "civil_conditional": "Conditional offences: each rests on a fact that was not given (see the table below); "
        "kept apart from the definite amount.",
        "criminal_conditional": "Conditional offences only; kept apart from the definite maximum.",
    }
    if _fines(a):
        rec = views.record(a)
        chapter = rec.chapter.split(" Chapter ")[-1]
        fine = (f"Fine, maximum (USD, {rec.chapter})", pen.fine_max_usd, why["definite"])
        assumed = (
            f"Fine on assumed facts, maximum (USD, Chapter {chapter})",
            pen.fine_conditional_usd,
            why["conditional"],
        )
        ui.money_row(st.columns(2), [fine, None if pen.fine_conditional_usd is None else assumed], cents=False)
        return
    b, a_ = views.cite(CIVIL, a), views.cite(CRIMINAL, a)
    c = st.columns(3)
    ui.money_row(
        [c[0], c[2]],
        [
            (f"Civil penalty, maximum (USD, {b})", pen.civil_penalty_max_usd, why["civil"]),
            (f"Criminal fine, maximum (USD, {a_})", pen.criminal_fine_max_usd, f"{a_} maxima."),
        ],
    )
    c[1].metric(f"{_times(a)['ed'].capitalize()} ({views.cite(DOUBLING, a)})", "Yes" if pen.doubled else "No")
    row = [ui.alternative_22f_item(a), None, None]  # after a violation: replant at 120%, or pay this into the Fund
    if pen.civil_penalty_conditional_usd is not None:  # the criminal one is shown only beside the civil one
        civil = pen.civil_penalty_conditional_usd, why["civil_conditional"]
        criminal = pen.criminal_fine_conditional_usd, why["criminal_conditional"]
        row[1] = (f"Civil penalty on assumed facts, maximum (USD, {b})", *civil)
        if criminal[0] is not None:
            row[2] = (f"Criminal fine on assumed facts, maximum (USD, {a_})", *criminal)
    ui.money_row(st.columns(3), row)
    cond = a.replacement.conditional_22f
    if (
        cond
    ):  # the violation standard on conditional offences: what would be required if established, never in the totals
        st.caption(views.readable(str(cond.get("text"))))  # the fact it rests on, as the control that gives it


def _not_held(rec: Any) -> None:
    """The page under a law whose penalties (and violation facts) the text read does not hold: it says so, naming
    the sections to see as the assessment's findings name them, and gives no amount, no offence and no "no
    penalty"."""
    with st.spinner("Assessing the survey…"):
        a = state.assessment()
    pen, permit = a.penalties, a.permit
    said = str(pen.not_held) if pen.not_held is not None else f"the penalties of {rec.chapter} are not held"
    st.warning(
        f"{views.record(a).chapter}: {said}. No offence is found and no amount is given: whether a removal is an "
        "offence, and what it would cost, is the ordinance's to say."
    )
    c = st.columns(2)
    c[0].metric(
        f"Trees harmed without a required permit ({pen.not_held.section if pen.not_held else rec.chapter})",
        "Not held",
        help=said,
    )
    if permit.not_held is not None:  # a violation is a removal without a required permit: neither is held
        c[1].metric(f"Permit required ({permit.not_held.section})", "Not held", help=str(permit.not_held))
    for n in a.replacement.not_held:
        st.caption(f"• {n}")
    ui.page_downloads("violations")
    printable.pdf_button("violations")  # the report says the penalties are not held, as this page does


def body() -> None:
    head = st.empty()  # which law's penalties, once the assessment says which law applies
    rec = views.survey_record()
    now = views.law_today(rec.key)
    if "penalty" not in now and "fine" not in now:  # a town whose penalties its text read does not hold
        _not_held(rec)
        return
    with st.expander("Violation facts", expanded=True):
        # Chapter 95 has no violation standard, doubling, clear cutting, per-day count or replacement percentage
        in_effect = _controls() if views.replaces(views.survey_record()) else st.empty()
        _mark_harmed()
    if views.replaces(views.survey_record()):  # the violation's replacement and its payment are on this basis
        views.basis_control("violations")
    with st.spinner("Assessing the survey…"):
        a = state.assessment()
    _say_in_effect(in_effect, a)
    head.caption(
        f"{views.record(a).chapter}: fines for trees removed without a {views.permit_words(views.record(a))}."
        if _fines(a)
        else f"Chapter 208 {cites.head(views.cite(CRIMINAL, a))}: civil tiers, {_times(a)['ing']}, continuing days and "
        "criminal maxima."
    )
    ui.jurisdiction_note(a)
    pen = a.penalties
    _headline(a)
    reasons = pen.doubling_reasons or []
    if reasons:
        st.markdown(f"**Why the amounts {_times(a)['verb']}**")
        for r in reasons:
            st.markdown(f"- {r}")
    setter = str(
        getattr(rules_module(views.record(a).key), "PENALTY_SETTER", "")
    )  # who sets the amount, as the law says
    st.caption(f"These are maxima: {setter}." if setter else "These are maxima.")

    per_tree = views.offence_rows(a)
    st.subheader("Per tree: definite and conditional offences")
    if len(per_tree):
        if "Offence" not in per_tree:
            st.caption(
                "The law engine does not yet say which offences rest on assumed facts: every offence is "
                "listed together."
            )
        shown = views.labelled(per_tree, a)
        if "Offence" in per_tree:
            for kind, title in (
                ("definite", "Definite: the facts given make the offence"),
                ("conditional", "Conditional: the offence holds only if the assumed fact is true"),
            ):
                part = shown[per_tree["Offence"] == kind]
                st.markdown(f"**{title}** ({len(part):,} trees)")
                if len(part):
                    views.show_table(per_tree[per_tree["Offence"] == kind], a, first=OFFENCE_FIRST)
        else:
            views.show_table(per_tree, a, first=OFFENCE_FIRST)
    else:
        st.caption("No tree was harmed without a permit: no penalty.")
    other = views.kv_table(
        views.fields_of(pen), skip=("per_tree", "trees", "doubling_reasons", "not_offences", "not_held")
    )
    other["Item"] = other["Item"].map(views.label)
    with st.expander("All penalty figures"):
        st.dataframe(other, width="stretch", hide_index=True)
    for n in pen.notes or []:
        st.caption(f"• {views.readable(n)}")
    ui.page_downloads("violations", {"Penalties per tree": views.labelled(per_tree, a) if len(per_tree) else None})
    printable.pdf_button("violations")  # the printable report (PDF) of this page's figures


ui.run_page("Violations & penalties", body, law=True)
