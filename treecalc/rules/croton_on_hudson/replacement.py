"""§208-22: the trees counted, the value their replacements must carry (A 90 %, F after a violation),
the exclusions (E) and the planting plan of the stock (C/D, §208-6A spacing).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from treecalc.frames import actions, flag, unclear_words
from treecalc.frames import actions_read as _acts
from treecalc.frames import isin as _isin
from treecalc.frames import map_unique as _map_unique
from treecalc.frames import pick as _pick
from treecalc.law import readings
from treecalc.models.planting import plan as make_plan
from treecalc.money import cents_sum, money, percent_of_up, round2, round_cents
from treecalc.reference import data
from treecalc.reference.species import resolve_one
from treecalc.results import ReplacementPart
from treecalc.rules.croton_on_hudson.cite import cited, paragraph, provision, subsection
from treecalc.rules.croton_on_hudson.offences import OffenceResult
from treecalc.rules.croton_on_hudson.permit import PermitResult, _meets, _tree_yes
from treecalc.rules.croton_on_hudson.planting import native_shortfall, prepare_stock
from treecalc.rules.croton_on_hudson.readings import note_18e
from treecalc.schema import DONE, HARMED, REMOVALS

if TYPE_CHECKING:  # the assessment's context, as a type only: the assessment calls the rules
    from treecalc.rules.context import Context


def replacement_scope(trees: pd.DataFrame, catalogue: pd.DataFrame, *, violation: bool) -> tuple[np.ndarray, list[str]]:
    """Trees § 208-22 may count (harmed, not excluded by E) and the reason each harmed tree is not.

    Kept for callers of the old scope: :func:`replacement_parts` decides the parts.
    """
    act = actions(trees)
    scope = _isin(act, HARMED) if violation else _isin(act, REMOVALS)
    invasive, forestry, part575 = _exclusions(trees, catalogue)
    harmed = _isin(act, HARMED)
    a, f = cited("replacement.percent"), cited("replacement.violation_percent")
    exclusion = np.where(
        harmed & invasive,
        "invasive (6 NYCRR 575 " + part575 + f") {provision('invasive')}",
        np.where(
            harmed & forestry,
            f"good forestry {provision('good_forestry')}",
            np.where(harmed & ~scope, f"damaged, not removed: counted only after a violation {a}/{paragraph(f)}", ""),
        ),
    )
    return scope & ~invasive & ~forestry, list(exclusion)


def _exclusions(trees: pd.DataFrame, catalogue: pd.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """§ 208-22E per tree: invasive species (6 NYCRR 575), good-forestry removals; and the Part 575 list."""
    idx, uniq = pd.factorize(trees["species_code"].astype(object), use_na_sentinel=False)
    keys = pd.Index([str(u) for u in uniq], dtype=object)
    part575 = np.append(catalogue["part575"].reindex(keys).fillna("none").to_numpy(object), "none")[idx]
    invasive = np.append(catalogue["invasive"].reindex(keys).fillna(False).to_numpy(bool), False)[idx]
    return invasive, flag(trees, "good_forestry"), part575


def dead_exclusion() -> str:
    """Why a dead tree is not counted: it has no environmental value as the law measures it."""
    a, f = cited("replacement.percent"), cited("replacement.violation_percent")
    return f"dead tree: no leaf area, no environmental value {provision('valuation_method')}; not counted {a}/{paragraph(f)}"


@dataclass
class ReplacementParts:
    """§ 208-22: the trees counted in each part, and why each harmed tree is not counted."""

    violation_part: np.ndarray  # after a violation: trees harmed in offences (or all harmed, violation given)
    permit_part: np.ndarray  # proposed removals under a permit for the minimum number of trees or more
    exclusion: np.ndarray  # per tree: why a harmed tree is not counted
    removals_under_permit: int
    violation: bool
    # the violation's standard on a conditional offence (resting on a fact not given), or on a tree whose
    # good-forestry cell is neither yes nor no (good forestry would exempt it): shown apart, never charged
    conditional_part: np.ndarray | None = None
    depends_on: np.ndarray | None = None  # per tree, the fact(s) not given its offence or its count rests on
    # the permit's standard: trees counted though their good-forestry cell is neither yes nor no (the permit preview keeps the
    # replacement); None: none
    forestry_kept: np.ndarray | None = None
    forestry_conditional: np.ndarray | None = None  # violation trees resting on such a cell (conditional_part)


def replacement_parts(
    trees: pd.DataFrame,
    catalogue: pd.DataFrame,
    law: dict[str, Any],
    pr: PermitResult,
    off: OffenceResult,
    *,
    violation: bool | None,
) -> ReplacementParts:
    """§ 208-22F 120% on the trees harmed in offences, § 208-22A 90% on removals proposed under a permit.

    ``violation``: None decides from the offences; True (the Engineer found a violation) puts every
    tree harmed (done) in the F part; False puts none there, and removals already made that needed a
    permit join the A part. A lawful removal that needs no permit carries nothing, nor does a tree
    only damaged without an offence. § 208-22E exclusions apply to both parts.
    """
    act = _acts(trees, pr)
    sec_a, sec_f = cited("replacement.percent"), cited("replacement.violation_percent")
    invasive, forestry, part575 = _exclusions(trees, catalogue)
    # a dead tree has no environmental value: not counted, though its removal still counts for the permit's
    # more-than-three trigger, clear cutting and the number of trees a permit is issued for
    dead = trees["dead"].fillna(False).to_numpy(bool) if "dead" in trees else np.zeros(len(trees), dtype=bool)
    excluded = invasive | forestry | dead
    done = _isin(act, DONE)
    village = pr.village if pr.village is not None else np.zeros(len(trees), dtype=bool)
    own_permit = _tree_yes(trees, "permit")
    harmed = _isin(act, HARMED)
    if violation is None:  # a fact not given never creates a charge: only definite offences are charged
        # the trees the violation's standard values are those "cut down, removed, topped, excessively pruned,
        # injured, damaged ...": a street tree pruned short of that is an offence, nothing destroyed to replace
        f_scope = off.definite & harmed
    elif violation:  # the Engineer's finding: every tree harmed, but the Village's work and a tree's own permit
        f_scope = done & ~village & ~own_permit
    else:
        f_scope = np.zeros(len(trees), dtype=bool)
    a_cand = _isin(act, ("remove",) if violation is not False else REMOVALS) & pr.permit_needed & ~f_scope
    under_permit = int(a_cand.sum())
    a_min = law["replacement"]["min_trees"]
    a_scope = a_cand if _meets("replacement.min_trees", under_permit, a_min) else np.zeros(len(trees), dtype=bool)
    rest = harmed & ~excluded & ~f_scope & ~a_scope
    removal = _isin(act, REMOVALS)
    removed_own = (act == "removed") & own_permit
    invasive_harmed = harmed & invasive & ~village & ~dead
    cond = off.conditional & harmed & ~f_scope if violation is None else np.zeros(len(trees), dtype=bool)
    # "not required if ... the approval authority determines that the removal ... is required as part of good
    # forestry practice": a cell neither yes nor no ("maybe", "?") is no such determination given. The exemption
    # read as no keeps the permit's replacement in the permit preview; the violation's replacement, a charge for a
    # violation, rests on it being no: conditional, naming the cell
    forestry_doubt = unclear_words(trees, harmed & ~excluded, "good_forestry", "no")
    doubtful = forestry_doubt != ""
    f_doubt = f_scope & doubtful & ~excluded
    why = _pick(
        [
            harmed & village,
            harmed & dead,
            invasive_harmed,
            harmed & forestry,
            rest & cond,
            rest & a_cand,
            rest & removed_own,
            rest & removal,
            rest,
        ],
        [
            f"work by or for the Village: no permit, nothing to replace {provision('village_work')}",
            dead_exclusion(),
            "",  # the invasive trees' reasons, per tree, below
            f"good forestry {provision('good_forestry')}",
            f"offence conditional on facts not given: replaced only if it is established {sec_f}",
            f"permit for {under_permit} tree(s): replacement only for {law['replacement']['min_trees']} or more "
            f"{sec_a}",
            f"removed under its own permit: no offence, nothing to replace here {sec_a}",
            f"no permit needed for this tree {subsection(cited('permit.more_than_trees_12mo'))}",
            f"harmed, no offence: nothing to replace {sec_f}",
        ],
    )
    if invasive_harmed.any():
        invasive_sec = provision("invasive")
        why[invasive_harmed] = _map_unique(
            part575[invasive_harmed], lambda p: f"invasive (6 NYCRR 575 {p}) {invasive_sec}"
        )
    depends = off.depends_on
    if f_doubt.any():
        why = why.astype(object)
        why[f_doubt] = _map_unique(
            forestry_doubt[f_doubt],
            lambda w: f"replaced only if {w}: good forestry exempts it {provision('good_forestry')}/{paragraph(sec_f)}",
        )
        base = depends if depends is not None else np.full(len(trees), "", dtype=object)
        depends = np.where(f_doubt, np.where(base == "", forestry_doubt, base + "; " + forestry_doubt), base).astype(
            object
        )
    kept = a_scope & doubtful & ~excluded
    return ReplacementParts(
        f_scope & ~excluded & ~f_doubt,
        a_scope & ~excluded,
        why.astype(object),
        under_permit,
        bool(f_scope.any()),
        conditional_part=(cond & ~excluded) | f_doubt,
        depends_on=depends,
        forestry_kept=kept if kept.any() else None,
        forestry_conditional=f_doubt if f_doubt.any() else None,
    )


def required_value(value_usd: Decimal | float, percent: float) -> Decimal:
    """ "At least" ``percent`` of a value, rounded UP to the cent (§ 208-22A/F): 10.044 -> 10.05."""
    return percent_of_up(value_usd if isinstance(value_usd, Decimal) else Decimal(str(value_usd)), percent)


def _violation_percent(ctx: Context, rules: dict[str, Any]) -> float:
    """§ 208-22F: the Engineer's percentage when given, the law's otherwise."""
    if ctx.opts.replacement_percent is not None:
        return float(ctx.opts.replacement_percent)
    return float(rules["violation_percent"])


def conditional_22f(
    ctx: Context, trees: pd.DataFrame, law: dict[str, Any], parts: ReplacementParts, options_ok: list[Any]
) -> dict[str, Any] | None:
    """§ 208-22F on the trees whose offence is conditional: what would be required if the facts it rests on
    were established (trees to plant, or the payment in their place), never part of what is required."""
    mask = parts.conditional_part
    if mask is None or not mask.any():
        return None
    pct = _violation_percent(ctx, law["replacement"])
    value = cents_sum(trees["value_usd"], mask)
    required = required_value(value, pct)
    schedule = ctx.schedule
    needed = None
    if options_ok:
        pl = make_plan(
            options_ok,
            float(required),
            fee_basis=schedule.basis,
            fee_per_tree_usd=float(schedule.fee_per_tree_usd),
            multiplier=float(schedule.multiplier),
            policy=ctx.opts.in_lieu_policy,
        )
        needed = int(sum(pl.counts)) + int(pl.trees_in_lieu)
    capital = ctx.capital_value_of(trees, mask, schedule.value_basis)
    # the payment is "equivalent to 120%" as written, whatever percentage the Engineer sets the standard at
    pay_pct = float(law["replacement"]["violation_percent"])
    payment = required_value(cents_sum(capital, np.ones(len(capital), dtype=bool)), pay_pct)
    depends = parts.depends_on[mask] if parts.depends_on is not None else np.array([], dtype=object)
    facts = "; ".join(sorted({str(d) for d in depends if d})) or "the facts not given"
    n = int(mask.sum())
    trees_text = f"{needed} trees" if needed is not None else "replacement trees"
    fc = parts.forestry_conditional
    also = " or whose good-forestry cell is neither yes nor no" if fc is not None and (fc & mask).any() else ""
    return {
        "section": cited("replacement.violation_percent"),
        "percent": pct,
        "trees": n,
        "tags": trees["tag"].to_numpy(object)[mask].astype(str).tolist(),
        "value_usd": float(value),
        "required_value_usd": float(required),
        "value_cents": int(value * 100),
        "required_value_cents": int(required * 100),
        "trees_needed": needed,
        "payment_usd": float(payment),
        "payment_cents": int(payment * 100),
        "depends_on": facts,
        "text": (
            f"{cited('replacement.violation_percent')}: {trees_text} (or ${payment:,.2f}) would be required if {facts} is established "
            f"({n} tree(s) whose offence is conditional{also}, {pct:g}% of ${value:,.2f}); not required, not in "
            "the totals"
        ),
    }


def _parts(ctx: Context, trees: pd.DataFrame, law: dict[str, Any], parts: ReplacementParts) -> list[Any]:
    rules = law["replacement"]
    pct_f = _violation_percent(ctx, rules)
    out = []
    tags = trees["tag"].to_numpy(object)
    sec_a, sec_f = cited("replacement.percent"), cited("replacement.violation_percent")
    for section, pct, mask, reason in (
        (
            sec_f,
            pct_f,
            parts.violation_part,
            f"the Village Engineer's percentage {sec_f}"
            if ctx.opts.replacement_percent is not None
            else f"{rules['violation_percent']}% of the value of the trees harmed in offences {sec_f}",
        ),
        (
            sec_a,
            float(rules["percent"]),
            parts.permit_part,
            f"{rules['percent']}% of the value of the trees proposed for removal under a permit for "
            f"{parts.removals_under_permit} trees ({rules['min_trees']} or more) {sec_a}",
        ),
    ):
        if not mask.any():
            continue
        value = cents_sum(trees["value_usd"], mask)
        out.append(
            ReplacementPart(
                section=section,
                percent=pct,
                trees=int(mask.sum()),
                value_usd=float(value),
                required_value_usd=float(required_value(value, pct)),
                tags=tags[mask].astype(str).tolist(),
                reason=reason,
                value_cents=int(value * 100),
                required_value_cents=int(required_value(value, pct) * 100),
            )
        )
    return out


def _default_stock() -> dict[str, Any]:
    """The replacement stock assumed when none is given: treecalc's reading (``data/readings/``), not the law's."""
    return dict(readings("croton_on_hudson")["replacement"]["default_stock"])


def _stock_entries(opts: Any, rules: dict[str, Any]) -> tuple[list[dict[str, Any]], list[str]]:
    """The replacement stock offered (§ 208-22C/D), with what was assumed for what was not given."""
    assumptions: list[str] = []
    if opts.replacement_stock:
        entries = [dict(e) for e in opts.replacement_stock]
        for e in entries:
            if e.get("unit_cost_usd") is None:
                e["unit_cost_usd"] = _default_stock()["unit_cost_usd"]
                assumptions.append(
                    f"replacement {e.get('species')}: unit cost not given, the placeholder "
                    f"${money(e['unit_cost_usd']):,.2f} is used"
                )
        return entries, assumptions
    d = _default_stock()
    species = opts.replacement_species or d["species"]
    if opts.replacement_species is None:
        assumptions.append(
            f"replacement species not given: {d['species']} (red maple, native) is assumed ({provision('native_species')})"
        )
    dbh_in = opts.replacement_dbh_in
    if dbh_in is None and opts.replacement_species is None:
        dbh_in = d["dbh_in"]
        assumptions.append(
            f"replacement size not given: {d['dbh_in']:g} in DBH is assumed ({cited('replacement.deciduous_min_dbh_in')} minimum "
            f"{rules['deciduous_min_dbh_in']:g} in)"
        )
    elif dbh_in is None:
        code = resolve_one(str(species)).code
        if code and data.catalogue().loc[code, "leaf_type"] != "conifer":
            dbh_in = d["dbh_in"]
            assumptions.append(f"replacement size not given: {d['dbh_in']:g} in DBH is assumed")
    cost = opts.replacement_cost_usd
    if cost is None:
        cost = d["unit_cost_usd"]
        assumptions.append(
            f"replacement unit cost not given: ${money(cost):,.2f} per tree supplied and "
            f"planted is a PLACEHOLDER (give ‹replacement_cost_usd›)"
        )
    return [
        {"species": species, "dbh_in": dbh_in, "height_ft": opts.replacement_height_ft, "unit_cost_usd": cost}
    ], assumptions


def _stock_hint(stock_report: list[dict[str, Any]], rules: dict[str, Any]) -> str:
    """What to change when every replacement stock was refused: the size (§208-22D) when that was
    the reason, another species otherwise."""
    reasons = [x for r in stock_report for x in r["refusals"]]
    if reasons and all("minimum for deciduous" in x for x in reasons):
        return f"give a replacement DBH of at least {rules['deciduous_min_dbh_in']:g} in ({cited('replacement.deciduous_min_dbh_in')})"
    if reasons and all("conifer" in x for x in reasons):
        return (
            f"give a conifer replacement height of at least {rules['conifer_min_height_ft']:g} ft "
            f"({cited('replacement.conifer_min_height_ft')})"
        )
    return "give another replacement species"


def plan_replacement(ctx: Context, law: dict[str, Any], required_usd: float, required: bool) -> dict[str, Any]:
    """§ 208-22C/D: the stock offered, the cheapest planting plan meeting the value, what goes in lieu."""
    opts, rules = ctx.opts, law["replacement"]
    entries, stock_assumptions = _stock_entries(opts, rules)

    def stock_value(c: Any, d: Any) -> np.ndarray:  # stock at good condition, rounded to cents
        return round_cents(ctx.value_of(c, d))

    options_ok, stock_report = prepare_stock(
        entries, rules, law["spacing_ft"], stock_value, size_waiver=opts.size_waiver
    )
    schedule = ctx.schedule
    warnings = [f"replacement stock {r['species']} refused: {reason}" for r in stock_report for reason in r["refusals"]]
    # a replacement species matched by similarity ("Red Mapel") is said, with what it was taken as
    warnings += [
        f"replacement species: {note}; check it"
        for r in stock_report
        for note in r.get("notes", [])
        if note.startswith("fuzzy match")
    ]
    notes: list[str] = []
    stock_notes = [
        f"replacement stock {r.get('species_code') or r['species']}: {note}"
        for r in stock_report
        if r.get("accepted")
        for note in r.get("notes", [])
        if note.startswith("conifer") or "waiver" in note
    ]
    if required and not options_ok and schedule.basis == "per_tree":
        refused = "; ".join(f"{r['species']}: {', '.join(r['refusals'])}" for r in stock_report)
        raise ValueError(f"no acceptable replacement stock ({refused}); {_stock_hint(stock_report, rules)}")
    if required:
        ctx.assumptions.extend(stock_assumptions + stock_notes)
        pl = make_plan(
            options_ok,
            required_usd,
            fee_basis=schedule.basis,
            fee_per_tree_usd=float(schedule.fee_per_tree_usd),
            multiplier=float(schedule.multiplier),
            plantable=opts.plantable,
            plantable_area_sqft=opts.plantable_area_sqft,
            policy=opts.in_lieu_policy,
        )
    else:
        pl = make_plan(options_ok, 0.0)
    rows = [
        {
            "species_code": o.species_code,
            "scientific_name": o.scientific_name,
            "common_name": o.common_name,
            "dbh_in": o.dbh_in,
            "unit_cost_usd": o.unit_cost_usd,
            "value_per_tree_usd": o.value_per_tree_usd,
            "count": int(k),
            "native": o.native,
            "size_class": o.size_class,
            "area_sqft_per_tree": o.area_sqft,
            "planted_value_usd": round2(o.value_per_tree_usd * k),
            "cost_usd": round2(o.unit_cost_usd * k),
        }
        for o, k in zip(options_ok, pl.counts)
        if k
    ]
    planted = int(sum(pl.counts))
    native_planted = int(sum(k for o, k in zip(options_ok, pl.counts) if o.native))
    # "predominantly" native: read as more than a share of the trees planted (data/readings/)
    shortfall = native_shortfall(native_planted, planted, readings("croton_on_hudson")["replacement"])
    if shortfall:
        warnings.append(shortfall)
    limited = opts.plantable is not None or opts.plantable_area_sqft is not None
    if required and not limited:
        notes.append("no limit on plantable trees given: every needed tree is planted")
    if required and limited and pl.trees_in_lieu:
        notes.append(
            f"the site can take {planted} tree(s): the rest goes to the Tree Preservation Fund ({provision('in_lieu')})"
        )
    if opts.plantable_area_sqft is not None:
        notes.append(
            f"plantable area divided by the {subsection(cited('spacing_ft.small'))} spacing of each tree's size class "
            f"(small {law['spacing_ft']['small']} ft, medium {law['spacing_ft']['medium']} ft, "
            f"large {law['spacing_ft']['large']} ft apart; spacing² per tree)"
        )
    if options_ok and required:
        first = options_ok[0]
        name = data.reader_names().get(first.species_code, "")
        tree = f"{name} ({first.species_code})" if name and name.upper() != first.species_code else first.species_code
        notes.append(
            f"a tree paid for in lieu stands for the value of one {tree}, ${first.value_per_tree_usd:,.2f}"
            f"{'/yr' if ctx.kind == 'annual' else ''} on this basis, the first accepted stock entry"
        )
    if ctx.kind == "annual":
        notes.append("the value compared is annual benefits (USD/yr): removed and replacement trees on the same basis")
    if any("invasive" in w or "575" in w for w in warnings):
        notes.append(note_18e())
    return {
        "plan": pl,
        "rows": rows,
        "stock": stock_report,
        "planted": planted,
        "native_planted": native_planted,
        "native_share": (native_planted / planted) if planted else None,
        "options": options_ok,
        "trees_needed": planted + int(pl.trees_in_lieu),
        "warnings": warnings,
        "notes": notes,
    }
