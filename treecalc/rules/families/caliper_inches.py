"""Replacement in caliper inches: the DBH removed times a percentage, met by trees of a minimum caliper, a fee per
caliper inch or per tree not planted in lieu. One implementation for every town of the family.

A town's law file holds the share of the DBH removed to replace (``[replacement.percent]``, or per DBH class:
``[replacement.classes]``, each row's ``min_dbh_in``, ``max_dbh_in`` and ``percent``), the DBH from which a tree is
counted when the text sets one (``[replacement.min_dbh_in]``), the minimum caliper of a replacement tree
(``[replacement.caliper_min_in]``: the trees required are the inches required divided by it, rounded up to a whole
tree) and the fee in lieu (``[fee.usd_per_caliper_inch]`` or ``[fee.usd_per_tree]``). Its readings say its
exemptions and what is not held: a fee the text does not set (``[fee] held = false``) gives no amount, a caliper it
does not set gives no count of trees, and a tree the text leaves undecided (an exemption not held, a flag left open
that would change its inches, a DBH between two classes) gives the site no total. A figure the text does not
support is never printed.
"""

from __future__ import annotations

import dataclasses
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING, Any

import numpy as np

from treecalc.frames import actions, dbh
from treecalc.law.loader import entries
from treecalc.law.schema import Entry, compare
from treecalc.results import Findings, Fund, NotHeld, Replacement, line
from treecalc.rules.families.count_by_class import (
    Tally,
    _exemptions,
    _held_not,
    _part,
    _permit,
    _rejected,
    classify,
    no_penalties,
    permit_lines,
    town_of,
    undetermined,
)
from treecalc.schema import DONE, REMOVALS

if TYPE_CHECKING:  # the assessment's context, as a type only: the assessment calls the rules
    from treecalc.rules.context import Context

SECTIONS_APPLIED: list[str] = []
READING_ITEMS: list[tuple[str, str]] = []

#: the keys of the fee in lieu a law file may hold (one of them): per caliper inch not planted, per tree not planted
FEE_KEYS = ("usd_per_caliper_inch", "usd_per_tree")
_CENT = Decimal("0.01")


def check_law(law: dict[str, Any], where: str) -> None:
    """Refuse a law file the family cannot apply, naming the file and the entry: the share to replace (one
    ``percent`` or a ``classes`` bracket with a ``percent`` column, not both) and at most one fee in lieu."""
    rep = law.get("replacement")
    if not isinstance(rep, dict):
        raise ValueError(f"{where}: lacks [replacement] (the share of the DBH removed to replace)")
    has_pct, has_classes = "percent" in rep, "classes" in rep
    if has_pct == has_classes:
        raise ValueError(
            f"{where} [replacement]: give either [replacement.percent] or [replacement.classes] (per DBH class), "
            "one of them"
        )
    classes = rep.get("classes")
    rows = classes.get("rows", []) if isinstance(classes, dict) else classes or []  # as written, or as resolved
    if has_classes and any("percent" not in r for r in rows):
        raise ValueError(f"{where} [replacement.classes]: every row needs its percent")
    fees = [k for k in FEE_KEYS if k in (law.get("fee") or {})]
    if len(fees) > 1:
        raise ValueError(f"{where} [fee]: give one of {', '.join(FEE_KEYS)}, not {' and '.join(fees)}")


def _d(x: Any) -> Decimal:
    return Decimal(str(x))


def _inches_words(x: Decimal) -> str:
    """Caliper inches as said: "12.5", "10"."""
    return f"{x.normalize():f}"


@dataclasses.dataclass
class Inches:
    """The law applied to the removed trees: each counted tree's DBH and the inches it requires (None: undecided)."""

    by_tree: dict[str, Decimal | None] = dataclasses.field(default_factory=dict)
    dbh_counted: Decimal = Decimal(0)
    trees_counted: int = 0

    @property
    def required(self) -> Decimal:
        return sum((v for v in self.by_tree.values() if v is not None), Decimal(0))


def _percent_of(ctx: Context, key: str, d: float) -> tuple[Any, str]:
    """The percentage of a tree of DBH ``d`` and the section giving it; ``"between"`` in no class, ``"below"`` under
    the lowest class."""

    rep = ctx.law["replacement"]
    if "classes" not in rep:
        return _d(rep["percent"]), ""
    rows = rep["classes"]
    ops = entries(key, on=ctx.opts.on)["replacement.classes"].operators  # type: ignore[union-attr]
    c = classify(d, rows, ops, None)
    if isinstance(c, str):
        return c, ""
    return _d(rows[c]["percent"]), str(rows[c].get("section", ""))


def _count(ctx: Context, key: str, read: dict[str, Any], tally: Tally, removed: np.ndarray, section: str) -> Inches:
    """Each removed tree's inches to replace: its DBH times its percentage, 0 under the threshold or exempt, None
    (undecided, said why in ``tally.undecided``) where the text or the survey leaves it open."""

    low = entries(key, on=ctx.opts.on).get("replacement.min_dbh_in")
    d = dbh(ctx.trees)
    tags = [str(t) for t in ctx.trees["tag"]]
    out = Inches()
    damaged = read.get("damaged") or {}
    harmed_only = np.isin(actions(ctx.trees), [a for a in DONE if a not in REMOVALS])
    if damaged and not damaged.get("held", True):
        for i in np.flatnonzero(harmed_only).tolist():  # harmed, not removed: the text counts it, how is not held
            tally.undecided.setdefault(
                tags[i],
                f"tree {tags[i]}: not held for {read['record']['town']}: see {damaged['section']} ({damaged['what']})",
            )
            out.by_tree[tags[i]] = None
    for i in np.flatnonzero(removed).tolist():
        tag = tags[i]
        if tally.exempt_all or tag in tally.by_tree:
            out.by_tree[tag] = Decimal(0)
            continue
        if tag in tally.undecided:
            out.by_tree[tag] = None
            continue
        if isinstance(low, Entry) and not compare(low.operator or ">=", float(d[i]), low.value):
            out.by_tree[tag] = Decimal(0)  # under the DBH the text counts from
            continue
        pct, _ = _percent_of(ctx, key, float(d[i]))
        if pct == "below":
            out.by_tree[tag] = Decimal(0)
            continue
        if pct == "between":
            out.by_tree[tag] = None
            tally.undecided[tag] = (
                f"tree {tag}: its DBH, {d[i]:g} in, is in no class of {section} (between two classes)"
            )
            continue
        inches = _d(d[i]) * pct / 100
        if tag in tally.may_be_exempt and inches:  # exempt or not, its inches differ: not given
            out.by_tree[tag] = None
            tally.undecided[tag] = tally.may_be_exempt[tag]
            continue
        out.by_tree[tag] = inches
        out.dbh_counted += _d(d[i])
        out.trees_counted += 1
    return out


def _fee(law: dict[str, Any]) -> tuple[str, Decimal] | None:
    """The fee in lieu the law file holds: ("usd_per_caliper_inch" or "usd_per_tree", its amount); None: not held."""
    fee = law.get("fee") or {}
    return next(((k, _d(fee[k])) for k in FEE_KEYS if k in fee), None)


def in_lieu(
    fee: tuple[str, Decimal], inches: Decimal, caliper: Decimal | None, planted: int, trees_in_lieu: int
) -> Decimal:
    """The amount in lieu, to the cent half up: per tree, the trees not planted times the fee; per caliper inch, the
    inches the planted trees (each of the minimum caliper) leave unmet times the fee."""
    kind, rate = fee
    if kind == "usd_per_tree":
        return (rate * trees_in_lieu).quantize(_CENT, ROUND_HALF_UP)
    unmet = max(Decimal(0), inches - planted * (caliper or Decimal(0)))
    return (unmet * rate).quantize(_CENT, ROUND_HALF_UP)


def assess(ctx: Context) -> Findings:
    key, record, read, town, site, sec = town_of(ctx)
    check_law(ctx.law, f"law/{key}/{record.law_files[0]}.toml")
    warnings: list[str] = []
    held_not = _held_not(read, town, key)
    not_held = [str(n) for n in held_not]
    removed = np.isin(actions(ctx.trees), REMOVALS)
    tally = _exemptions(ctx, read, site, town, removed)
    got = _count(ctx, key, read, tally, removed, sec["replacement"])
    _rejected(ctx, tally)
    for tag, why in tally.undecided.items():
        if tag.startswith("row "):
            warnings.append(f"{why}, so none for the site")
        else:
            warnings.append(f"{why}: no replacement inches are given for tree {tag}, so none for the site")
    decided = not tally.undecided
    inches = got.required if decided else None
    cap_raw = ctx.law["replacement"].get("caliper_min_in")
    caliper = _d(cap_raw) if cap_raw is not None else None
    required: int | None = None
    if inches is not None and caliper is not None:
        required = int((inches / caliper).to_integral_value(ROUND_CEILING))
    elif inches is not None:
        warnings.append(
            f"{sec['replacement']} sets no minimum caliper of a replacement tree: the trees required are not "
            f"given, only the inches ({_inches_words(inches)} in)"
        )

    plantable = ctx.opts.plantable
    fee = _fee(ctx.law)
    fee_said = read.get("fee") or {}
    fee_not_held = (
        NotHeld(town, str(fee_said.get("section", sec["fund"])), str(fee_said.get("what", "the fee in lieu")), "")
        if fee is None
        else None
    )
    planted = trees_in_lieu = None
    exact: Decimal | None = None
    if required is not None and plantable is not None:
        planted = min(int(plantable), required)
        trees_in_lieu = required - planted
        if fee is not None and inches is not None:
            exact = in_lieu(fee, inches, caliper, planted, trees_in_lieu)
        elif trees_in_lieu == 0:
            exact = Decimal("0.00")  # every tree planted: nothing is paid, whatever the fee
    fund_usd = float(exact) if exact is not None else None
    penalties_not_held = _part(held_not, "penalties") or NotHeld(town, record.chapter, "the penalties", "penalties")
    permit = _permit(ctx, key, town, sec["permit"], removed, _part(held_not, "permit"))
    said = permit_lines(permit, sec, record, town)
    lines = (
        said
        + _lines(ctx, sec, town, tally, got, inches, caliper, required, planted, trees_in_lieu, fund_usd, fee_not_held)
        + [line("", "Not held", n) for n in not_held]
    )
    replacement = Replacement(
        required=bool(inches) if inches is not None else True,
        percent=float(ctx.law["replacement"]["percent"]) if "percent" in ctx.law["replacement"] else None,
        section=sec["replacement"],
        value_basis=ctx.options["value_basis"],
        value_basis_label=ctx.options["value_basis_label"],
        removed_value_usd=None,
        required_value_usd=None,
        trees_counted=got.trees_counted,
        trees_needed=required,
        trees_planted=planted,
        trees_in_lieu=trees_in_lieu,
        notes=[f"exempt from replacement: {tally.exempt_all}"] if tally.exempt_all else [],
        warnings=warnings,
        # no count per tree: the trees required are the site's inches divided by the caliper, rounded up once
        trees_by_tag={},
        not_held=not_held,
        inches_removed=float(got.dbh_counted) if decided else None,
        inches_required=float(inches) if inches is not None else None,
        inches_by_tag={t: (None if v is None else float(v)) for t, v in got.by_tree.items()},
    )
    fund = Fund(
        basis="caliper_inches" if exact is not None else None,
        fund_in_lieu_usd=fund_usd,
        section=sec["fund"],
        trees_in_lieu=trees_in_lieu,
        fund_in_lieu_exact=exact,
        label=record.fund_name,
        notes=(
            [str(fee_not_held)]
            if fee_not_held is not None and exact is None
            else []
            if plantable is not None
            else ["give ‹plantable› (the replacement trees planted on site) for the amount in lieu"]
        ),
        not_held=_part(held_not, "fund"),
    )
    penalties = no_penalties(ctx, penalties_not_held)
    ctx.warnings.extend(warnings)
    return Findings(permit, replacement, fund, penalties, ctx.survey_lines + lines, site)


def _lines(
    ctx: Context,
    sec: Any,
    town: str,
    tally: Tally,
    got: Inches,
    inches: Decimal | None,
    caliper: Decimal | None,
    required: int | None,
    planted: int | None,
    trees_in_lieu: int | None,
    fund_usd: float | None,
    fee_not_held: NotHeld | None,
) -> list[dict[str, Any]]:
    """The statement's lines: the trees counted and their DBH, the inches and trees required, the trees planted and
    the amount in lieu (or not held)."""
    s = sec["replacement"]
    # inches left open by a tree or row undecided; trees left open with the inches known: the caliper not held
    open_inches = undetermined(tally)
    not_given = open_inches if inches is None else f"not held for {town}: see {s}"
    out = [line(s, "Trees counted", got.trees_counted, "trees")]
    if inches is None:
        out.append(line(s, "Replacement caliper inches required", open_inches, ""))
    else:
        out.append(line(s, "DBH of the trees counted", float(got.dbh_counted), "in"))
        out.append(line(s, "Replacement caliper inches required", float(inches), "in"))
    note = f"caliper at least {caliper.normalize():f} in" if caliper is not None else ""
    said = required if required is not None else not_given
    out.append(line(sec.get("trees_needed", s), "Replacement trees required", said, "trees" if required else "", note))
    if planted is not None:
        out.append(line(sec.get("planting", s), "Replacement trees planted on site", planted, "trees"))
        if fund_usd is None and fee_not_held is not None:
            out.append(line(sec["fund"], "Paid in lieu", str(fee_not_held), "", f"{trees_in_lieu} trees not planted"))
        else:
            out.append(line(sec["fund"], "Paid in lieu", fund_usd, "USD", f"{trees_in_lieu} trees not planted"))
    return out
