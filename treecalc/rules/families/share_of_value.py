"""Replacement at a share of the environmental value removed, the rest paid in lieu: one implementation for every
town of the family held as data.

A town's law file holds the permit's triggers (``[permit.min_dbh_in]``, a tree of that DBH or more removed;
``[permit.trees_removed_min]``, that many trees or more removed, each then needing the permit whatever its size),
the share (``[replacement.percent]`` of the environmental value of the trees removed under the permit), the least
size of a replacement tree (``[replacement.min_caliper_in]``), the credit of one planted when its readings credit a
count (``[replacement.credit_per_tree_usd]``), the payment in lieu (``[fund.in_lieu_multiplier]`` times the value
the trees planted do not carry) and, when its text sets one, the fine for each tree removed without the permit
(``[penalty.fine_per_tree_usd]``). Its readings say how a tree planted is credited (``[replacement] credit``:
``"value"``, its own environmental value on the assessment's basis, or ``"count"``), its exemptions (as the
count-by-class family reads them: a held one from the survey's flags, one not held naming its section) and what
of the ordinance is not held.

The law sets a value, not a count: ``trees_needed`` is None, and what the trees planted on site (``plantable``) do
not carry is paid in lieu. A tree whose share rests on a fact not given (an exemption flag left open, an exemption
not held, a rejected row) leaves the value required not given: a share the text does not support is never printed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from treecalc.frames import actions, dbh, flag_given, set_text
from treecalc.law.loader import entries
from treecalc.law.registry import Jurisdiction, by_key
from treecalc.law.schema import Entry, compare
from treecalc.money import cents, cents_sum, percent_of_up, round_cents
from treecalc.reference.species import resolve_one
from treecalc.results import (
    Findings,
    Fund,
    NotHeld,
    Penalties,
    Permit,
    Replacement,
    ReplacementPart,
    exact_cents,
    line,
    tags_text,
)
from treecalc.rules.families.count_by_class import (
    _exemptions,
    _held_not,
    _part,
    _rejected,
    no_penalties,
    permit_lines,
    town_of,
)
from treecalc.schema import DONE, REMOVALS

if TYPE_CHECKING:  # the assessment's context, as a type only: the assessment calls the rules
    from treecalc.rules.context import Context

SECTIONS_APPLIED: list[str] = []
READING_ITEMS: list[tuple[str, str]] = []
#: How a replacement tree planted is credited against the value required (the readings' ``[replacement] credit``).
CREDITS = ("value", "count")


@dataclass
class Share:
    """The trees counted and the value their replacements must carry: ``required`` None when a tree counted rests on
    a fact not given (``undecided``: why, by tag or rejected row)."""

    counted: np.ndarray
    removed_value: Decimal
    required: Decimal | None
    percent: float
    exempt: list[str] = field(default_factory=list)
    undecided: dict[str, str] = field(default_factory=dict)


@dataclass
class Credit:
    """The trees planted on site and the value they carry: ``per_tree`` each one's credit, ``stock`` the tree it is
    valued as (credited by value), ``planted`` None when the trees planted are not given."""

    mode: str
    per_tree: Decimal
    planted: int | None
    stock: dict[str, Any] = field(default_factory=dict)

    def carried(self, required: Decimal) -> Decimal | None:
        """The value credited: the trees planted times each one's credit, never more than the value required."""
        if self.planted is None:
            return None
        return min(self.per_tree * self.planted, required)


def _entry(key: str, ctx: Context, name: str) -> Entry | None:

    e = entries(key, on=ctx.opts.on).get(name)
    return e if isinstance(e, Entry) else None


def _permit(
    ctx: Context, key: str, town: str, section: str, removed: np.ndarray, held_not: NotHeld | None
) -> tuple[Permit, np.ndarray | None]:
    """The permit the removals need, by each trigger the town's law file holds (a DBH, a number of trees removed),
    and the trees needing it; without a trigger in the file the permit is not held (neither yes nor no, each tree's
    need of it NA, and None for the trees)."""
    by_dbh, by_count = _entry(key, ctx, "permit.min_dbh_in"), _entry(key, ctx, "permit.trees_removed_min")
    if by_dbh is None and by_count is None:
        ctx.trees["permit_needed"] = pd.array([pd.NA] * len(ctx.trees), dtype="boolean")
        said = held_not or NotHeld(town, section, "the permit", "permit")
        return Permit(None, [], [], 0, f"not held for {town}: see {section}", notes=[str(said)], not_held=said), None
    tags = ctx.trees["tag"].astype(str).to_numpy(object)
    needs = np.zeros(len(ctx.trees), dtype=bool)
    triggers = []
    if by_dbh is not None:
        big = removed & compare(by_dbh.operator or ">=", dbh(ctx.trees), by_dbh.value)
        needs |= big
        if big.any():
            triggers.append({"section": by_dbh.section, "text": by_dbh.text, "tags": tags[big].tolist()})
    if by_count is not None and compare(by_count.operator or ">=", int(removed.sum()), by_count.value):
        needs |= removed  # every tree removed, whatever its size
        triggers.append({"section": by_count.section, "text": by_count.text, "tags": tags[removed].tolist()})
    ctx.trees["permit_needed"] = needs
    return Permit(bool(needs.any()), triggers, [], int(needs.sum()), section), needs


def _share(
    ctx: Context, key: str, read: dict[str, Any], site: dict[str, Any], town: str, scope: np.ndarray, section: str
) -> Share:
    """The share of the value of the trees removed in ``scope`` their replacements must carry, the exempt trees not
    counted. A tree whose exemption rests on a fact not given and whose value is not nil leaves it not given."""
    pct = _entry(key, ctx, "replacement.percent")
    if pct is None:
        raise ValueError(f"{key}: its law file holds no [replacement.percent] (the share of the value removed)")
    tally = _exemptions(ctx, read, site, town, scope)
    _rejected(ctx, tally)
    tags = ctx.trees["tag"].astype(str).to_numpy(object)
    values = ctx.trees["value_usd"].to_numpy(float)
    exempt = np.isin(tags, [t for t, n in tally.by_tree.items() if n == 0]) | bool(tally.exempt_all)
    undecided = dict(tally.undecided)
    for tag, why in tally.may_be_exempt.items():
        at = np.flatnonzero(tags == tag)
        if at.size and values[at[0]] > 0 and tag not in tally.by_tree:  # a nil value is nil, exempt or not
            undecided.setdefault(tag, why)
    open_ = np.isin(tags, list(undecided))
    counted = scope & ~exempt & ~open_
    value = cents_sum(values, counted)
    required = None if undecided else percent_of_up(value, float(pct.value))
    if not undecided:  # every open tree's value is nil: counted as nothing
        counted = scope & ~exempt
    exempt_tags = tags[scope & exempt].tolist()
    if undecided:
        for tag, why in undecided.items():
            # a rejected row has no value to take a share of (its words from the count family name a count)
            where = f"{why.split(':')[0]}: its value is not known" if tag.startswith("row ") else f"{why}: tree {tag}"
            ctx.warnings.append(f"{where}: its share of {section} is not given, so the value required is not either")
    return Share(counted, value, required, float(pct.value), exempt_tags, undecided)


def _per_tree(ctx: Context, share: Share, removed: np.ndarray, scope: np.ndarray, section: str) -> None:
    """Each tree counted toward the value required, and why a tree removed is not (the statement's columns)."""
    tags = ctx.trees["tag"].astype(str).to_numpy(object)
    exempt = np.isin(tags, share.exempt) & scope
    why = np.full(len(tags), "", dtype=object)
    why[removed & ~scope] = f"no permit needed: not counted ({section})"
    why[exempt] = "exempt from replacement"
    for i in np.flatnonzero(np.isin(tags, list(share.undecided)) & scope).tolist():
        why[i] = share.undecided[tags[i]]
    ctx.trees["counted"] = share.counted
    set_text(ctx.trees, "exclusion", why)


def _credit(ctx: Context, key: str, read: dict[str, Any], record: Jurisdiction) -> Credit:
    """How each replacement tree planted on site is credited (the readings' ``[replacement] credit``): its own value
    on the assessment's basis, as a tree of the stock given or the readings' default (said), at least the law's
    caliper; or the law's fixed credit per tree."""
    rep = read.get("replacement") or {}
    mode = str(rep.get("credit", ""))
    if mode not in CREDITS:
        raise ValueError(f"readings/{key}.toml [replacement] credit = {mode!r}: not one of {', '.join(CREDITS)}")
    planted = ctx.opts.plantable
    if mode == "count":
        per = _entry(key, ctx, "replacement.credit_per_tree_usd")
        if per is None:
            raise ValueError(f"{key}: credit 'count' needs [replacement.credit_per_tree_usd] in its law file")
        return Credit(mode, cents(Decimal(str(per.value))), planted)

    default = dict(rep.get("default_stock") or {})
    species = ctx.opts.replacement_species or default.get("species")
    size = ctx.opts.replacement_dbh_in if ctx.opts.replacement_dbh_in is not None else default.get("dbh_in")
    if not species or size is None:
        raise ValueError(f"{record.chapter}: give ‹replacement_species› and ‹replacement_dbh_in› (no default stock)")
    least = _entry(key, ctx, "replacement.min_caliper_in")
    if least is not None and not compare(least.operator or ">=", float(size), least.value):
        raise ValueError(
            f"replacement DBH (replacement_dbh_in) {float(size):g} in is under the {least.value:g} in caliper "
            f"{least.section} requires of a replacement tree"
        )
    if ctx.opts.replacement_species is None or ctx.opts.replacement_dbh_in is None:
        ctx.assumptions.append(
            f"{record.chapter}: a replacement tree planted is credited with the value of one {species} of "
            f"{float(size):g} in DBH (give ‹replacement_species› and ‹replacement_dbh_in› for another)"
        )
    code = resolve_one(str(species)).code
    if not code:
        raise ValueError(f"replacement species (replacement_species) {species!r}: not a species treecalc knows")
    value = float(round_cents(ctx.value_of(np.array([code], dtype=object), np.array([float(size)])))[0])
    stock = {"species_code": code, "species": str(species), "dbh_in": float(size), "value_per_tree_usd": value}
    return Credit(mode, Decimal(repr(value)), planted, stock)


@dataclass
class InLieu:
    """The payment in lieu: the value not carried times the law's multiplier (None: not determined)."""

    unmet: Decimal | None
    multiplier: float | None
    amount: Decimal | None
    calculation: str = ""


def _in_lieu(ctx: Context, key: str, share: Share, carried: Decimal | None) -> InLieu:
    mult = _entry(key, ctx, "fund.in_lieu_multiplier")
    if share.required is None or carried is None:
        return InLieu(None, float(mult.value) if mult else None, None)
    unmet = share.required - carried
    if mult is None:
        return InLieu(unmet, None, None)
    amount = cents(unmet * Decimal(str(mult.value)))
    return InLieu(unmet, float(mult.value), amount, f"{mult.value:g} x ${unmet:,.2f} not carried = ${amount:,.2f}")


def _offences(ctx: Context, key: str, needs: np.ndarray | None, held_not: NotHeld | None, town: str) -> Penalties:
    """The fine for each tree removed (done) that needed the permit without one, when the law file sets it
    (``[penalty.fine_per_tree_usd]``): definite where the survey's permit cell says no, conditional where it is not
    given (never charged); not held otherwise, and no offence is found."""
    fine = _entry(key, ctx, "penalty.fine_per_tree_usd")
    if fine is None or needs is None:
        said = held_not or NotHeld(town, by_key(key).chapter, "the penalties", "penalties")
        return no_penalties(ctx, said)
    trees = ctx.trees
    done = needs & np.isin(actions(trees), DONE)
    held = flag_given(trees, "permit")
    given = trees["permit"].notna().to_numpy(bool) if "permit" in trees else np.zeros(len(trees), dtype=bool)
    definite, conditional = done & given & ~held, done & ~given
    per = int(fine.value)
    tags = trees["tag"].astype(str).to_numpy(object)
    why = f"whether the tree was removed under a permit is not given ({fine.section})"
    rows = [
        {"tag": t, "fine_max_usd": per, "offence_sections": fine.section, "status": s, "depends_on": d}
        for mask, s, d in ((definite, "definite", ""), (conditional, "conditional", why))
        for t in tags[mask].tolist()
    ]
    trees["offence"] = definite
    trees["offence_depends_on"] = np.where(conditional, why, "").astype(object)
    n, c = int(definite.sum()), int(conditional.sum())
    return Penalties(
        fine_max_usd=n * per,
        fine_conditional_usd=c * per,
        continuing_days=ctx.opts.continuing_days,
        offences=n,
        offences_definite=n,
        offences_conditional=c,
        per_tree=rows,
        sections=[fine.section],
        notes=[f"{fine.section}: up to ${per:,} for each tree removed without the permit; {fine_words(c)}"],
    )


def _fine_lines(pen: Penalties) -> list[dict[str, Any]]:
    """The fine's lines when the law file holds one (the statement, the PDF and the text answer print them as they
    print Wesley Hills' fine): the trees fined and the maxima, definite and conditional apart; none when not held."""
    if not pen.sections or pen.fine_max_usd is None:
        return []
    s = pen.sections[0]
    per = pen.per_tree[0]["fine_max_usd"] if pen.per_tree else None
    each = f"up to ${per:,} per tree; " if per is not None else ""
    return [
        line(s, "Trees removed without the permit (facts given)", pen.offences_definite, "trees"),
        line(s, "Trees whose permit is not given (conditional)", pen.offences_conditional, "trees"),
        line(s, "Fine, maximum", pen.fine_max_usd, "USD", f"{each}definite offences only"),
        line(
            s,
            "Fine, conditional offences (on assumed facts)",
            pen.fine_conditional_usd,
            "USD",
            "up to, only if the assumed facts hold; not in the maximum",
        ),
    ]


def fine_words(conditional: int) -> str:
    """What the conditional offences are, in words."""
    if not conditional:
        return "the fine counts the trees whose permit cell says no"
    return f"{conditional} removal(s) whose permit is not given are fined only if it is established (not counted)"


def assess(ctx: Context) -> Findings:
    key, record, read, town, site, sec = town_of(ctx)
    basis = str((read.get("replacement") or {}).get("value_basis", ""))
    if basis and ctx.kind != basis:
        # the law names the value it takes a share of: a share of another value (an appraisal is many times the
        # annual benefits) would charge what the text does not support, so it is refused, not warned of
        raise ValueError(
            f"{record.chapter} values a tree as its {basis} benefits ({sec['replacement']}); value_basis "
            f"{ctx.options['value_basis']!r} is not the law's: leave it out or give {basis!r}"
        )
    held_not = _held_not(read, town, key)
    removed = np.isin(actions(ctx.trees), REMOVALS)
    permit, needs = _permit(ctx, key, town, sec["permit"], removed, _part(held_not, "permit"))
    scope = removed & needs if needs is not None else removed
    share = _share(ctx, key, read, site, town, scope, sec["replacement"])
    _per_tree(ctx, share, removed, scope, sec["replacement"])
    credit = _credit(ctx, key, read, record)
    carried = credit.carried(share.required) if share.required is not None else None
    pay = _in_lieu(ctx, key, share, carried)
    penalties = _offences(ctx, key, needs, _part(held_not, "penalties"), town)
    replacement = _replacement(ctx, sec, share, credit, carried, pay, [str(n) for n in held_not], scope)
    fund = Fund(
        basis="value" if pay.amount is not None else None,
        fund_in_lieu_usd=float(pay.amount) if pay.amount is not None else None,
        section=sec["fund"],
        multiplier=pay.multiplier,
        label=record.fund_name,
        unmet_value_usd=float(pay.unmet) if pay.unmet is not None else None,
        fund_in_lieu_exact=pay.amount,
        calculation=pay.calculation,
        notes=[]
        if credit.planted is not None
        else ["give ‹plantable› (the replacement trees planted on site) for the amount in lieu"],
        not_held=_part(held_not, "fund"),
    )
    lines = permit_lines(permit, sec, record, town) + _lines(ctx, sec, share, credit, carried, pay)
    lines += _fine_lines(penalties)
    lines += [line("", "Not held", str(n)) for n in held_not]
    return Findings(permit, replacement, fund, penalties, ctx.survey_lines + lines, site)


def _replacement(
    ctx: Context,
    sec: Any,
    share: Share,
    credit: Credit,
    carried: Decimal | None,
    pay: InLieu,
    not_held: list[str],
    scope: np.ndarray,
) -> Replacement:
    """The finding: the value removed, the share required (its one part), the trees planted and what they carry."""
    tags = ctx.trees["tag"].astype(str).to_numpy(object)
    parts = []
    if share.required is not None and share.counted.any():
        parts.append(
            ReplacementPart(
                section=sec["replacement"],
                percent=share.percent,
                trees=int(share.counted.sum()),
                value_usd=float(share.removed_value),
                required_value_usd=float(share.required),
                tags=tags[share.counted].tolist(),
                reason=f"{share.percent:g}% of the value of the trees removed under the permit {sec['replacement']}",
                value_cents=exact_cents(share.removed_value),
                required_value_cents=exact_cents(share.required),
            )
        )
    notes = [f"the law sets a value, not a count of trees: see the value required ({sec['replacement']})"]
    if share.exempt:
        notes.append(f"exempt from replacement: {tags_text(share.exempt)}")
    if credit.planted is not None and share.required is not None and credit.per_tree * credit.planted > share.required:
        notes.append("the trees planted carry more than the value required: the rest earns no credit")
    return Replacement(
        required=bool(share.required) if share.required is not None else True,
        percent=share.percent,
        section=sec["replacement"],
        value_basis=ctx.options["value_basis"],
        value_basis_label=ctx.options["value_basis_label"],
        removed_value_usd=float(share.removed_value) if share.required is not None else None,
        required_value_usd=float(share.required) if share.required is not None else None,
        parts=parts,
        trees_counted=int(share.counted.sum()),
        removals_under_permit=int(scope.sum()),
        stock=[credit.stock] if credit.stock else [],
        trees_needed=None,
        trees_planted=credit.planted,
        planted_value_usd=float(carried) if carried is not None else None,
        unmet_value_usd=float(pay.unmet) if pay.unmet is not None else None,
        notes=notes,
        not_held=not_held,
        removed_value_cents=exact_cents(share.removed_value) if share.required is not None else None,
        required_value_cents=exact_cents(share.required),
    )


def _lines(
    ctx: Context, sec: Any, share: Share, credit: Credit, carried: Decimal | None, pay: InLieu
) -> list[dict[str, Any]]:
    """The statement's lines: the value removed and the share required (or why it is not given), the trees planted,
    the value they carry and the payment in lieu."""
    unit = ctx.options.get("value_unit", "USD")
    rs = sec["replacement"]
    out = [line(rs, "Trees counted (removed under the permit)", int(share.counted.sum()), "trees")]
    if share.required is None:
        floor = f"${share.removed_value:,.2f} for the trees decided"
        out.append(
            line(rs, "Value required of the replacements", f"not given: {len(share.undecided)} undecided", "", floor)
        )
        return out
    out += [
        line(rs, "Value of the trees removed", share.removed_value, unit),
        line(rs, "Replacement percentage", share.percent, "%"),
        line(
            rs, "Value required of the replacements", share.required, unit, f"{share.percent:g}% of the value removed"
        ),
    ]
    each = credit.stock.get("species_code") or "tree"
    plant = sec.get("planting", rs)
    if credit.per_tree > 0 and share.required:
        whole = math.ceil(share.required / credit.per_tree)
        out.append(
            line(
                plant,
                "Credit per replacement tree planted",
                credit.per_tree,
                unit,
                f"{whole} such trees carry it all ({each})",
            )
        )
    if carried is not None:
        out.append(line(plant, "Replacement trees planted on site", credit.planted, "trees"))
        out.append(line(plant, "Value carried by the trees planted", carried, unit))
    if pay.amount is not None:
        out.append(line(sec["fund"], "Paid in lieu", pay.amount, "USD", pay.calculation))
    return out
