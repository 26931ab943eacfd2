"""Permit & replacement (the applicant's view): §208-19 triggers, §208-22 replacement, the plan."""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

import pandas as pd
import streamlit as st

from treecalc.app import (
    charts,
    plan_panel,
    printable,  # the PDF report
    state,
    ui,
    views,
)
from treecalc.law import cites
from treecalc.report.content import percent_text
from treecalc.report.held import credits_value

if TYPE_CHECKING:
    from collections.abc import Sequence

    from streamlit.delta_generator import DeltaGenerator

    from treecalc.assessment import Assessment
    from treecalc.results import Replacement


def _stock_help() -> str:
    """§208-22D's least sizes of a replacement tree, as in force today (the date the app assesses on)."""
    rep = views.law_today()["replacement"]
    return (
        f"Deciduous trees at least {float(rep['deciduous_min_dbh_in']):g} in DBH; conifers at least "
        f"{float(rep['conifer_min_height_ft']):g} ft tall ({views.cite('replacement.conifer_min_height_ft')})."
    )


#: The entries and provisions of the law the page cites (their sections read from the law, never retyped)
PERCENT, PERMIT = "replacement.percent", "permit.more_than_trees_12mo"
VALUE_BASIS, IN_LIEU, FUND, INVASIVE = (f"sections.{k}" for k in ("valuation_method", "in_lieu", "fund", "invasive"))
DEFAULT = "__default__"  # the law engine's default stock (its label says which species and size)
STOCK_COLUMNS = ["species", "dbh_in", "unit_cost_usd"]
#: The figures the permit is about, at the left of its tables (in sight at 1,280 px)
TREE_FIRST = ("tag", "species", "dbh_in", "value_usd")


def _invasive_note(codes: list[str], choices: pd.DataFrame, labels: dict[str, str]) -> list[str]:
    """Say inline that invasive species are refused (§208-22E); return the codes that are not invasive."""
    invasive = set(choices.loc[choices["invasive"], "code"])
    bad = [c for c in codes if c in invasive]
    for c in bad:
        st.error(
            f"**{labels.get(c, c)}** is listed as invasive (NY Part 575): {views.cite(INVASIVE)} does not accept it as "
            "replacement stock. The figures below leave it out; choose another species.",
            icon=":material/block:",
        )
    return [c for c in codes if c not in invasive]


def _one_species(choices: pd.DataFrame, labels: dict[str, str], d: dict) -> None:
    codes = [DEFAULT, *choices["code"]]
    cur = state.opt("replacement_species") or state.opt("_last_species") or DEFAULT
    c1, c2, c3 = st.columns([4, 1, 1])
    sp = c1.selectbox(
        "Replacement species",
        codes,
        index=codes.index(cur) if cur in codes else 0,
        format_func=lambda c: d["label"] if c == DEFAULT else labels.get(c, c),
        key="w_repl_species",
        help=f"Natives first; invasive species (NY Part 575) are refused by {views.cite(INVASIVE)}.",
    )
    dbh = ui.number_field(
        c2,
        "Size (DBH, in)",
        (0.1, 60.0),
        state.opt("replacement_dbh_in"),
        0.5,
        "w_repl_dbh",
        help=_stock_help(),
        placeholder=f"{d['dbh_in']:g}",  # the default, said in the help: a word after it is cut off in the box
    )
    quote = (
        f"Supplied and planted, per tree; empty: ${d['unit_cost_usd']:,.2f}, the law engine's labelled "
        "PLACEHOLDER (give the real quote)."
    )
    cost = ui.number_field(  # the range of --replacement-cost
        c3,
        "Unit cost (USD)",
        "usd",
        state.opt("replacement_cost_usd"),
        25.0,
        "w_repl_cost",
        help=quote,
        placeholder=f"{d['unit_cost_usd']:,.0f}",  # the placeholder cost, said in the help
    )
    ok = _invasive_note([] if sp == DEFAULT else [sp], choices, labels)
    state.set_opt("replacement_species", ok[0] if ok else None)
    state.set_opt("_last_species", None if sp == DEFAULT else sp)  # kept when the stock becomes a list
    state.set_opt("replacement_dbh_in", dbh)
    state.set_opt("replacement_cost_usd", cost)


def _stock_list(choices: pd.DataFrame, labels: dict[str, str], d: dict) -> None:
    if "w_stock" not in st.session_state or "tc_stock_base" not in st.session_state:
        # the editor's edits are kept relative to the table it was first given: keep that table fixed
        first = state.opt("replacement_stock") or [
            {
                "species": state.opt("_last_species") or d["species"],  # the species chosen above carries over
                "dbh_in": state.opt("replacement_dbh_in") or d["dbh_in"],
                "unit_cost_usd": state.opt("replacement_cost_usd") or d["unit_cost_usd"],
            }
        ]
        st.session_state["tc_stock_base"] = pd.DataFrame(first, columns=STOCK_COLUMNS)
    st.caption(
        "One row per kind of tree you can plant: the cheapest mix that carries the required value is found. "
        f"Unit cost ${d['unit_cost_usd']:,.2f} is a PLACEHOLDER until you give the nursery's price."
    )
    edited = st.data_editor(
        st.session_state["tc_stock_base"],
        key="w_stock",
        num_rows="dynamic",
        hide_index=True,
        width="stretch",
        column_config={
            # not required=True: the browser holds back a new row with a required cell empty, so a kind of
            # tree begun without its species would silently be left out of the plan; it is refused below
            "species": st.column_config.SelectboxColumn(
                "Species",
                options=list(choices["code"]),
                help=f"natives first; invasives are refused ({views.cite(INVASIVE)})",
            ),
            "dbh_in": st.column_config.NumberColumn("DBH (in)", min_value=0.1, step=0.5, default=d["dbh_in"]),
            "unit_cost_usd": st.column_config.NumberColumn(
                f"Unit cost (USD; ${d['unit_cost_usd']:,.0f} placeholder)",
                min_value=0.0,
                format="$%.2f",
                default=d["unit_cost_usd"],
                help="supplied and planted, per tree",
            ),
        },
    )
    _refuse_unfinished(edited)
    rows = [
        {
            "species": r.species,
            "dbh_in": float(r.dbh_in),
            "unit_cost_usd": float(r.unit_cost_usd) if pd.notna(r.unit_cost_usd) else d["unit_cost_usd"],
        }
        for r in edited.dropna(subset=["species", "dbh_in"]).itertuples()
    ]
    ok = set(_invasive_note(list(dict.fromkeys(r["species"] for r in rows)), choices, labels))
    rows = [r for r in rows if r["species"] in ok]
    state.set_opt("replacement_stock", rows or None)
    if rows:
        state.set_opt("_last_species", rows[0]["species"])


def _refuse_unfinished(edited: pd.DataFrame) -> None:
    """A stock row with some cells and no species or no DBH is refused (naming the table and the row), never
    dropped: a kind of tree left out changes the cheapest plan. A row with nothing in it is no row."""
    blank = edited[["species", "dbh_in", "unit_cost_usd"]].isna()
    for n, (_, row) in enumerate(blank.iterrows(), start=1):
        if row.all() or not (row["species"] or row["dbh_in"]):
            continue
        lacks = " and no ".join(w for w, b in (("species", row["species"]), ("DBH", row["dbh_in"])) if b)
        raise state.AppError(
            f"Replacement stock, row {n}: no {lacks}. Give its {lacks} in the table under “A stock list”, "
            "or delete the row; the plan and its cost are shown once every row is complete."
        )


def _stock_controls() -> None:
    choices = views.species_choices()
    labels = dict(zip(choices["code"], choices["label"]))
    d = views.default_stock()
    modes = ["One species", "A stock list"]
    mode = st.radio(
        "Replacement stock",
        modes,
        horizontal=True,
        key="w_stock_mode",
        index=1 if state.opt("replacement_stock") else 0,
    )
    if mode == modes[0]:
        st.session_state.pop("tc_stock_base", None)
        state.set_opt("replacement_stock", None)
        _one_species(choices, labels, d)
    else:
        state.set_opt("replacement_species", None)
        state.set_opt("replacement_dbh_in", None)
        state.set_opt("replacement_cost_usd", None)
        _stock_list(choices, labels, d)
    views.plantable_controls()


def _replaces(a: Assessment) -> bool:
    return views.replaces(views.record(a))


def body() -> None:
    head = st.container()  # the law's name, once the assessment says which law applies
    card = st.container()  # the applicant's answer first (a phone shows it in its first screen), above the controls
    rec = views.survey_record()
    if views.replaces(rec) and views.prices_stock(rec):  # a law without replacement (Chapter 95): nothing to choose
        views.basis_control("permit")  # it turns the required value, the plan and the payment above and below
        with st.expander("Replacement stock and planting space", expanded=True):
            _stock_controls()
            plan_panel.mortality_control()
    elif views.replaces(rec):  # a count of trees by class: no stock, no value basis; the planting space alone
        with st.expander("Planting space", expanded=True):
            views.plantable_controls(rec)
    with st.spinner("Assessing the survey…"):
        a = state.assessment()
    with head:
        st.caption(_head(views.record(a), a))
    counts = _replaces(a) and not views.prices_stock(views.record(a))
    # a replacement's card names the basis beside its total; a count of trees is on no value basis
    ui.jurisdiction_note(a, basis=not _replaces(a))
    if not _replaces(a):
        _permit_figures(a)
    elif counts and credits_value(a):  # a share of the value removed, the trees planted credited by their value
        with card:
            _value_card(a)
        _count_figures(a)
    elif counts:
        with card:
            _count_card(a)
        _count_figures(a)
    else:
        with card:
            _cost_card(a)
        _replacement_figures(a)
    per_tree = _triggers(a)
    plan = _plan(a)
    if _replaces(a):
        if not counts:  # the replacements' benefits against the removed trees': a plan of stock to project
            _projection(a, a.replacement)
        plan_panel.panel(views.record(a), a)  # which optional removals to make: treecalc.studies.plan
    ui.page_downloads(
        "permit",
        {
            "Triggered trees": views.labelled(per_tree, a),
            "Planting plan": views.labelled(plan, a) if len(plan) else None,
        },
    )
    printable.pdf_button("permit")  # the printable report (PDF) of this page's figures


def _cost_card(a: Assessment) -> None:
    """The applicant's answer: what this permit costs me, each figure with its section, and what would change it."""
    rep, fund = a.replacement, a.fund
    unit = a.options.get("value_unit", "USD")
    with st.container(border=True):
        st.markdown("#### What will this permit cost me?")
        if not rep.required:
            st.markdown(
                f"**No replacement is required** ({rep.percent_note or views.cite(PERCENT, a)}): nothing to plant "
                "and nothing to pay into the Tree Preservation Fund."
            )
            _basis_line(a)
            _fewer_removals(a)  # the trees kept so far stay in sight, to be put back
            return
        planted, in_lieu = rep.trees_planted or 0, rep.trees_in_lieu or 0
        d, fund_s = views.cite(IN_LIEU, a), views.cite(FUND, a)
        plant_cost, pay = rep.planting_cost_usd or 0.0, fund.fund_in_lieu_usd or 0.0
        total = float(Decimal(str(plant_cost)) + Decimal(str(pay)))  # two cent amounts: exact
        c = st.columns(3)
        ui.money_row(
            c,
            [
                (
                    f"Plant {ui.num(planted)} replacement trees ({d})",
                    plant_cost,
                    "Supplied and planted, at the unit cost of the stock.",
                ),
                (
                    f"Pay for {ui.num(in_lieu)} trees in lieu ({fund_s})",
                    pay,
                    f"Into the Tree Preservation Fund, for the trees the site cannot take ({d}).",
                ),
                (
                    f"Total out of pocket ({d} + {fund_s})",
                    total,
                    "Planting cost plus the payment in lieu. Permit fees are not included.",
                ),
            ],
        )
        _basis_line(a)
        plan = rep.plan or []
        if plan:
            st.markdown(
                "**Plant:** "
                + "; ".join(
                    f"{p['count']:,} × {p.get('common_name') or p['species_code']} {p['dbh_in']:g} in DBH at "
                    f"{ui.usd(p['unit_cost_usd'], cents=True)} = {ui.usd(p['cost_usd'], cents=True)}"
                    for p in plan
                )
            )
        placeholders = [s for s in (a.assumptions or []) if "PLACEHOLDER" in s or "placeholder" in s]
        if fund.placeholder and in_lieu:
            placeholders.append(f"the fee in lieu is a {fund.label}")
        for p in placeholders:
            st.warning(views.readable(p[:1].upper() + p[1:]), icon=":material/priority_high:")
        first = plan[0] if plan else {}
        size = views.cite("replacement.deciduous_min_dbh_in", a)
        st.markdown("**What would change it**")
        st.markdown(
            f"- *Fewer removals*: the replacement must carry {percent_text(rep.percent, [{'percent': p.percent} for p in rep.parts])} "
            "of the value of the trees "
            f"counted ({ui.usd(rep.removed_value_usd, cents=True)} {unit}, "
            f"{rep.section or views.cite(PERCENT, a)}); each tree kept off the list lowers it by its own value "
            "(the table of triggered trees below).\n"
            + (
                f"- *A larger replacement size*: one {first.get('common_name') or first.get('species_code')} of "
                f"{first.get('dbh_in', 0):g} in "
                f"carries {ui.usd(first.get('value_per_tree_usd'), cents=True)} {unit}; a larger tree carries more, "
                f"so fewer are needed ({size}), each at a higher price.\n"
                if first
                else ""
            )
            + f"- *The planting space*: the site takes {ui.num(planted)} here; every tree it cannot take is paid in "
            f"lieu ({d}, {fund_s}). Set what it can take under *Replacement stock and planting space*."
        )
        _fewer_removals(a)


def _count_card(a: Assessment) -> None:
    """The applicant's answer under a law counting replacement trees by class: the trees its table requires, those
    planted and paid for in lieu, and the payment (the table's fees for the trees not planted), each with its
    section; what the law's text read does not hold (the permit, the fund) said so, never as "no" or $0.00."""
    rep, fund, permit = a.replacement, a.fund, a.permit
    s = views.parts(views.record(a), a)
    table, planting, paid = s["replacement"], s.get("planting") or s["replacement"], s.get("fund") or s["replacement"]
    with st.container(border=True):
        st.markdown("#### What will this permit cost me?")
        if permit.not_held is not None:
            st.markdown(f"**Permit:** {permit.not_held} — whether these removals need one is not said here.")
        c = st.columns(3)
        c[0].metric(f"Replacement trees required (trees, {table})", _count_or_not_given(rep.trees_needed))
        c[1].metric(f"Planted on site (trees, {planting})", _count_or_not_given(rep.trees_planted))
        c[2].metric(f"Paid for in lieu (trees, {paid})", _count_or_not_given(rep.trees_in_lieu))
        if rep.trees_needed is None:
            st.warning(
                "The replacement trees are not given for the site: the text read leaves a tree undecided (below), "
                "so no count and no payment is given."
            )
        elif fund.fund_in_lieu_usd is not None:
            c = st.columns(3)
            ui.money_row(
                c[:1],
                [
                    (
                        f"Payment in lieu (USD, {paid})",
                        fund.fund_in_lieu_usd,
                        f"The table's fee for each replacement tree not planted on site, paid into "
                        f"{views.fund_words(a)}.",
                    )
                ],
            )
            c[1].markdown(f"Paid into {views.fund_words(a)}.")
        else:
            st.caption(
                f"Set the trees the site can take under *Planting space*: the payment in lieu ({paid}) is the table's "
                "fee for each replacement tree not planted on site."
            )
        if rep.trees_planted:
            st.caption(
                f"The table sets no price for the {ui.num(rep.trees_planted)} trees planted on site: their cost is the "
                "nursery's quote, not a figure of the law. Permit fees are not included."
            )
        _fewer_removals(a)  # the trees kept so far stay in sight, to be put back


def _value_card(a: Assessment) -> None:
    """The applicant's answer under a law requiring a share of the value removed that prices no stock: the value
    required, what the trees planted on site carry and the payment in lieu of the rest, each with its section; a
    figure resting on a fact not given is said not given, never $0.00."""
    rep, fund = a.replacement, a.fund
    s = views.parts(views.record(a), a)
    table, planting, paid = s["replacement"], s.get("planting") or s["replacement"], s.get("fund") or s["replacement"]
    unit = a.options.get("value_unit", "USD")
    with st.container(border=True):
        st.markdown("#### What will this permit cost me?")
        if rep.required_value_usd is None:
            st.warning(
                "The value the replacements must carry is not given: a tree's share rests on a fact not given "
                "(below), so no payment is given either."
            )
            return
        c = st.columns(3)
        ui.money_row(
            c,
            [
                (
                    f"Value required ({unit}, {table})",
                    rep.required_value_usd,
                    f"{percent_text(rep.percent, [])} of {ui.usd(rep.removed_value_usd, cents=True)}, the value of "
                    "the trees counted.",
                ),
                (
                    f"Carried by {ui.num(rep.trees_planted)} trees planted ({unit}, {planting})"
                    if rep.trees_planted is not None
                    else f"Carried by the trees planted ({unit}, {planting})",
                    rep.planted_value_usd,
                    "Each tree planted on site is credited against the value required.",
                ),
                (
                    f"Payment in lieu (USD, {paid})",
                    fund.fund_in_lieu_usd,
                    f"{fund.calculation or 'The value not carried'}, paid into {views.fund_words(a)}.",
                ),
            ],
        )
        if fund.fund_in_lieu_usd is None:
            st.caption(
                f"Set the trees the site can take under *Planting space*: the payment in lieu ({paid}) is for the "
                "value they do not carry."
            )
        st.caption("The planting's cost is the nursery's quote, not a figure of the law. Permit fees are not included.")
        st.caption(f"Value basis: **{ui.basis_words(a)}** ({views.cite(VALUE_BASIS, a)}).")
        _fewer_removals(a)  # the trees kept so far stay in sight, to be put back


def _count_or_not_given(n: int | None) -> str:
    return "not given" if n is None else ui.num(n)


def _count_figures(a: Assessment) -> None:
    """The table applied: the trees removed in each class with the class's words, each removed tree's count, the
    warnings (a tree the text leaves undecided) and what of the law is not held."""
    rep = a.replacement
    classes = [ln for ln in a.lines if ln.get("item") == "Trees removed in the class"]
    if classes:
        st.dataframe(
            pd.DataFrame(
                {
                    "Section": [ln["section"] for ln in classes],
                    "Trees removed (trees)": [ln["value"] for ln in classes],
                    "The table's words": [ln["note"] for ln in classes],
                }
            ),
            width="stretch",
            hide_index=True,
        )
    for w in rep.warnings or []:
        st.warning(views.readable(w))
    for n in rep.notes or []:
        st.caption(f"• {views.readable(n)}")
    if rep.not_held:
        with st.expander(f"Not held: what of {views.record(a).chapter} the text read does not give"):
            st.markdown("\n".join(f"- {why}" for why in rep.not_held))


def _basis_line(a: Assessment) -> None:
    """The value basis, beside the answer it changes (it sets the value the replacement must carry)."""
    st.caption(
        f"Value basis: **{ui.basis_words(a)}** ({views.cite(VALUE_BASIS, a)}): the value the replacement must carry. "
        "Change it under this box."
    )


def _keep_edits() -> str:
    """What the ticks were drawn from (:func:`ui.drawn_from`), and the values shown beside them."""
    return ui.drawn_from(basis=state.opt("value_basis"))


def _fewer_removals(a: Assessment) -> None:
    """The "fewer removals" lever: a tick per tree proposed for removal keeps it (its action becomes retain,
    a change made in the app, said in the statement); the cost above is worked out again at once."""
    sv = state.survey()
    trees = sv.trees
    if not len(trees) or "action" not in trees:
        return
    actions = dict(state.opt("actions") or {})
    tags = trees["tag"].astype(str)
    proposed = trees[trees["action"].astype(str) == "remove"]
    if proposed.empty:
        return
    values = dict(zip(a.trees["tag"].astype(str), a.trees["value_usd"])) if "value_usd" in a.trees else {}
    refused, no_change = _keep_limits()
    if "w_keep" not in st.session_state or st.session_state.get("tc_keep_edits") != _keep_edits():
        tags_proposed = proposed["tag"].astype(str)
        st.session_state["tc_keep_base"] = pd.DataFrame(
            {
                "keep": [actions.get(t) == "retain" for t in tags_proposed],
                "tag": tags_proposed.to_numpy(),
                "species": proposed["species"].astype(str).to_numpy(),
                "dbh_in": proposed["dbh_in"].to_numpy(float),
                "value_usd": [values.get(t) for t in tags_proposed],
                "if_kept": [refused.get(t) or no_change.get(t) or "" for t in tags_proposed],
            }
        )
        st.session_state.pop("w_keep", None)
    unit = a.options.get("value_unit", "USD")
    names = {
        "keep": "Keep it",
        "tag": "Tag",
        "species": "Species",
        "dbh_in": "DBH (in)",
        "value_usd": f"Value ({unit})",
        "if_kept": "If kept",
    }
    base = st.session_state["tc_keep_base"]
    # a tree that cannot be kept, or whose keeping changes nothing, is greyed (its tick stays: a plan may keep it)
    grey = [bool(refused.get(t) or no_change.get(t)) for t in base["tag"]]
    styled = base.rename(columns=names).style.apply(
        lambda row: [f"color: {GREYED}" if grey[row.name] else ""] * len(row), axis=1
    )
    if said := st.session_state.pop(_KEEP_REFUSED, None):
        st.warning(said, icon=":material/block:")
    edited = st.data_editor(
        styled,
        key="w_keep",
        hide_index=True,
        width="stretch",
        disabled=[names[c] for c in ("tag", "species", "dbh_in", "value_usd", "if_kept")],
        column_config={
            names["keep"]: st.column_config.CheckboxColumn(help="Tick to keep the tree: it leaves the removals."),
            names["dbh_in"]: st.column_config.NumberColumn(format="%.1f"),
            names["value_usd"]: st.column_config.NumberColumn(format="dollar"),
            names["if_kept"]: st.column_config.TextColumn(
                help="Why a tree cannot be kept, or why keeping it changes neither the permit nor the cost."
            ),
        },
    ).rename(columns={v: k for k, v in names.items()})
    asked = [t for t, keep in zip(edited["tag"], edited["keep"]) if bool(keep) and t in refused]
    if asked:  # refused: the tick is taken back and the reason said
        st.session_state[_KEEP_REFUSED] = "; ".join(f"Tree {t} is not kept: {refused[t]}." for t in asked)
        st.session_state["tc_keep_edits"] = None  # the table drawn again from the actions, without the tick
        st.rerun()
    new = dict(actions)
    for t, keep in zip(edited["tag"], edited["keep"]):
        if bool(keep):
            new[t] = "retain"
        elif new.get(t) == "retain" and (tags == t).any():
            new.pop(t)
    kept = sum(1 for t in edited["tag"] if new.get(t) == "retain")
    st.caption(
        f"{kept:,} of the {len(edited):,} trees proposed for removal kept (changed in the app)."
        if kept
        else "Tick a tree to keep it: the cost above is worked out again without it."
    )
    if new != actions:
        state.set_opt("actions", new or None)
        st.session_state["tc_keep_edits"] = _keep_edits()
        st.rerun()  # the cost above, without the trees kept
    st.session_state["tc_keep_edits"] = _keep_edits()


#: The text colour of a tree in the keep table that cannot be kept or whose keeping changes nothing
GREYED = "#8a8a8a"
_KEEP_REFUSED = "tc_keep_refused"  # why the last tick was taken back, said above the table once


def _keep_limits() -> tuple[dict[str, str], dict[str, str]]:
    """(trees that cannot be kept, trees whose keeping changes nothing), each tag with the reason
    (:func:`treecalc.studies.plan.keep_limits`); none when the survey cannot be planned (its page says why)."""
    try:
        limits = state.keep_limits()
    except state.AppError:
        return {}, {}
    return dict(limits.refused), dict(limits.no_change)


def _replacement_figures(a: Assessment) -> None:
    permit, rep, fund = a.permit, a.replacement, a.fund
    unit = a.options.get("value_unit", "USD")  # USD/yr on the annual basis
    pct, whole = views.cite(PERCENT, a), cites.head(views.cite(PERCENT, a))
    c: Sequence[DeltaGenerator] = st.columns(3)
    c[0].metric(f"Permit required ({cites.head(views.cite(PERMIT, a))})", "Yes" if permit.required else "No")
    c[1].metric(f"Replacement required ({whole})", "Yes" if rep.required else "No")
    c[2].metric(
        f"Replacement percentage ({cites.joined(pct, views.cite('replacement.violation_percent', a))})",
        percent_text(rep.percent, [{"percent": p.percent} for p in rep.parts]),
        help=f"value basis: {rep.value_basis_label or rep.value_basis}",
    )
    c = st.columns(3)
    ui.money_row(
        c[:2],
        [
            (
                f"Removed value ({unit}, {views.cite(VALUE_BASIS, a)})",
                rep.removed_value_usd,
                "Value the percentage applies to (invasive and good-forestry removals excluded).",
            ),
            (f"Required value ({unit}, {pct})", rep.required_value_usd, None),
        ],
    )
    c[2].metric(
        f"Native share of replacements ({views.cite('sections.native_species', a)})",
        "—" if rep.native_share is None else f"{float(rep.native_share):.0%}",
    )
    parts = rep.parts
    if parts:  # the violation percentage on trees harmed in offences + the percentage on proposed removals
        st.dataframe(
            views.labelled(
                pd.DataFrame(
                    [
                        {k: getattr(p, k) for k in ("section", "percent", "trees", "value_usd", "required_value_usd")}
                        for p in parts
                    ]
                ),
                a,
            ),
            width="stretch",
            hide_index=True,
        )
    c = st.columns(3)  # labels carry unit and section: three to a row keeps them whole
    d = views.cite(IN_LIEU, a)
    c[0].metric(f"Replacement trees required (trees, {whole})", ui.num(rep.trees_needed))
    c[1].metric(f"Trees planted (trees, {d})", ui.num(rep.trees_planted))
    c[2].metric(f"Trees paid in lieu (trees, {d})", ui.num(rep.trees_in_lieu))
    c = st.columns([2, 1])
    fund_label = f"Payment in lieu to the Tree Preservation Fund (USD, {views.cite(FUND, a)})"
    ui.money_metric(c[0], fund_label, fund.fund_in_lieu_usd)
    for w in rep.warnings or []:
        st.warning(views.readable(w))
    for n in rep.notes or []:
        st.caption(f"• {views.readable(n)}")


def _head(rec, a: Assessment) -> str:
    """What the page applies, in the words of the law's record."""
    chapter, of = rec.chapter.split(" Chapter ")[-1], views.place(rec)
    if not views.replaces(rec):
        return (
            f"Chapter {chapter} of the Village of {of}: {views.permit_section(rec, a)} {views.permit_words(rec)} triggers. Chapter "
            f"{chapter} has no replacement rule and no tree fund."
        )
    s = views.parts(rec, a)
    if not views.prices_stock(rec):
        return (
            f"Chapter {chapter} of {of}: {s['permit']} permit, {s['replacement']} replacement trees by DBH class, "
            "paid for in lieu where the site cannot take them."
        )
    return (
        f"Chapter {chapter} of {of}: {s['permit']} permit triggers, {s['replacement']} replacement, the cheapest plan."
    )


def _permit_figures(a: Assessment) -> None:
    permit, summary, rec = a.permit, a.summary, views.record(a)
    sec, chapter = views.permit_trigger_section(rec, a), rec.chapter.split(" Chapter ")[-1]
    c = st.columns(3)
    c[0].metric(f"{rec.permit_item} ({views.place(rec)} {sec})", "Yes" if permit.required else "No")
    c[1].metric(f"Trees needing a {views.permit_words(rec)} (trees, {sec})", ui.num(permit.trees_needing_permit))
    c[2].metric(f"Replacement (Chapter {chapter})", "Not required", help=summary.note if summary is not None else None)
    for n in a.replacement.notes:
        st.caption(f"• {n}")


def _triggers(a: Assessment) -> pd.DataFrame | None:
    permit = a.permit
    rec = views.record(a)
    sec, replaces = views.permit_section(rec, a), views.replaces(rec)
    st.subheader(
        f"Permit triggers ({sec})"
        if replaces
        else f"{views.permit_words(rec).capitalize()} triggers ({rec.chapter}, {sec})"
    )
    triggers = permit.triggers or []
    if permit.not_held is not None:  # neither a trigger nor "no trigger holds": the permit's section is not held
        st.caption(f"{permit.not_held}: which removals need the permit is not said here.")
    elif triggers:
        for t in triggers:
            if isinstance(t, str):
                st.markdown(f"- {t}")
            else:
                tags = t.get("tags") or []
                st.markdown(
                    f"- **{t.get('section', '')}** {t.get('text', '')}"
                    + (f" — trees {', '.join(map(str, tags[:25]))}{' …' if len(tags) > 25 else ''}" if tags else "")
                )
        for e in permit.exceptions_applied or []:
            st.markdown(f"- exception **{e.get('section', '')}** {e.get('text', '')}")
        if permit.approving_authority:
            st.caption(f"Approving authority: {permit.approving_authority}")
    else:
        st.caption(f"No {sec} trigger holds.")
    per_tree = _trigger_trees(a.trees)
    if per_tree is not None and len(per_tree):
        views.show_table(per_tree, a, first=TREE_FIRST)
    return per_tree


def _plan(a: Assessment) -> pd.DataFrame:
    if not _replaces(a):
        return pd.DataFrame()
    rep = a.replacement
    if not views.prices_stock(views.record(a)):  # a count of trees prices no stock: no mix is made
        section = views.parts(views.record(a), a)["replacement"]
        st.subheader(f"Planting plan ({section})")
        st.caption(f"No planting plan is made under {section}: it counts the trees to replant, it prices no stock.")
        return pd.DataFrame()
    st.subheader(f"Planting plan ({cites.head(views.cite(PERCENT, a))})")
    plan = views.frame(rep.plan)
    if len(plan):
        views.show_table(plan, a)
    else:
        st.caption("No planting plan: nothing to replace.")
    stock_report = views.frame(rep.stock)
    for col in ("refusals", "notes"):
        if col in stock_report:
            stock_report[col] = stock_report[col].map(lambda v: "; ".join(map(str, v)) if isinstance(v, list) else v)
    if len(stock_report):
        with st.expander("Stock offered: accepted and refused, with the reasons"):
            st.dataframe(views.labelled(stock_report, a), width="stretch", hide_index=True)
    return plan


def _trigger_trees(trees: pd.DataFrame | None) -> pd.DataFrame | None:
    """The trees for which a permit trigger holds, with the sections."""
    if not isinstance(trees, pd.DataFrame) or "permit_triggers" not in trees:
        return None
    has = trees["permit_triggers"].fillna("").astype(str).str.strip() != ""
    keep = [
        c
        for c in (
            "tag",
            "species",
            "species_code",
            "dbh_in",
            "action",
            "permit_needed",
            "permit_triggers",
            "counted",
            "exclusion",
            "value_usd",
        )
        if c in trees
    ]
    return trees.loc[has, keep]


def _projection(a: Assessment, rep: Replacement) -> None:
    st.subheader("20 years: replacements against the trees removed")
    if not rep.required:
        st.caption("No replacement is required, so there is nothing to project.")
        return
    df = state.projection(a, 20)
    if df.empty:
        st.caption("Nothing to project.")
        return
    st.altair_chart(charts.projection(df, title="Annual benefits over the next 20 years (USD/yr)"), width="stretch")
    with st.expander("The chart as a table (text alternative)"):
        wide = df.pivot(index="year", columns="series", values="value_usd").reset_index()
        st.dataframe(
            wide.rename(columns={"year": "Years from now"}),
            hide_index=True,
            width="stretch",
            column_config={
                c: st.column_config.NumberColumn(f"{c} (USD/yr)", format="$%.2f") for c in wide.columns if c != "year"
            },
        )
    st.caption(
        "Each year's expected annual benefits (i-Tree Streets, the assessment's prices) of the trees counted toward "
        "replacement had they stayed, and of the planting plan, both grown with the treecalc growth curves "
        "(Urban Tree Database / i-Tree Streets age classes). " + plan_panel.mortality_caption(a)
    )


ui.run_page("Permit & replacement", body, law=True)
