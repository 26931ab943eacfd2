"""§208-22D/F, §208-24: the payment in lieu to the Tree Preservation Fund, on the fee schedule (:mod:`.schedule`)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from treecalc.money import cents, cents_sum
from treecalc.results import Fund
from treecalc.rules.croton_on_hudson.cite import cited, provision
from treecalc.rules.croton_on_hudson.replacement import ReplacementParts, required_value
from treecalc.rules.croton_on_hudson.schedule import in_lieu, load_fee_schedule, not_in_force

if TYPE_CHECKING:  # the assessment's context, as a type only: the assessment calls the rules
    from treecalc.rules.context import Context


def _fund_findings(
    ctx: Context,
    trees: pd.DataFrame,
    parts: ReplacementParts,
    plan_out: dict[str, Any],
    required: bool,
    part_list: list[Any],
) -> Any:
    """§ 208-22D/F, § 208-24: the payment in lieu, on the fee schedule's capital basis when it is "value"."""
    schedule = ctx.schedule
    pl = plan_out["plan"]
    unmet = pl.unmet_value_usd if required else 0.0
    capital = None
    how_capital = ""
    if schedule.basis == "value" and required and unmet > 0:
        capital, how_capital = _capital_unmet(ctx, plan_out["options"], unmet)
    f = in_lieu(
        schedule,
        trees_in_lieu=pl.trees_in_lieu if required else 0,
        unmet_value_usd=unmet,
        unmet_capital_usd=capital,
        capital_how=how_capital,
    )
    if f["placeholder"] and required and pl.trees_in_lieu:
        ctx.warnings.append(f"the fee in lieu is a {schedule.label}")
    if ctx.opts.fee_schedule_in_force:  # a fee given that is not the Village's schedule in force: said, every output
        day = dt.date.fromisoformat(str(ctx.options["on"]))  # the date assessed on (assess() sets it)
        ctx.warnings.extend(
            not_in_force(ctx.opts.fee_schedule, ctx.opts.fee_per_tree_usd, ctx.opts.fee_schedule_in_force, day)
        )
    alt, alt_how, alt_exact = None, "", None
    f_part = next((p for p in part_list if p.section == cited("replacement.violation_percent")), None)
    if f_part is not None:
        values = ctx.capital_value_of(trees, parts.violation_part, schedule.value_basis)
        base = cents_sum(values, np.ones(len(values), dtype=bool))
        # the Engineer's "such other percentage" is of the replacement standard; the payment is the law's 120 %
        pay_pct = float(ctx.law["replacement"]["violation_percent"])
        alt_exact = required_value(base, pay_pct)
        alt = float(alt_exact)
        alt_how = (
            f"{pay_pct:g}% of ${base:,.2f}, the value of the {f_part.trees} tree(s) harmed in "
            f"offences on the capital basis {schedule.value_basis} ({cited('replacement.violation_percent')}, "
            f"{provision('fund')}), rounded up to the cent"
        )
    return Fund(
        basis=f["basis"],
        fund_in_lieu_usd=f["fund_in_lieu_usd"],
        section=f["section"],
        fee_per_tree_usd=f["fee_per_tree_usd"],
        multiplier=f["multiplier"],
        placeholder=f["placeholder"],
        label=f["label"],
        source=f["source"],
        trees_in_lieu=f["trees_in_lieu"],
        unmet_value_usd=f["unmet_value_usd"],
        capital_value_basis=f.get("capital_value_basis"),
        fund_in_lieu_exact=f["fund_in_lieu_exact"],
        calculation=f["calculation"],
        alternative_22f_usd=alt,
        alternative_22f_exact=alt_exact,
        alternative_22f_calculation=alt_how,
        notes=f["notes"],
    )


def _capital_unmet(ctx: Context, options_ok: list[Any], unmet: float) -> tuple[Decimal, str]:
    """The unmet value as a capital sum: the replacement trees it stands for, each at its capital value.

    § 208-22D: a payment "equivalent to the value of the trees which cannot be planted". The plan's
    unmet value (on the assessment's basis) is a number of the first accepted stock tree; each is
    valued on the fee schedule's capital basis (never an annual $/yr figure as a one-off sum).
    """
    basis = ctx.schedule.value_basis
    if not options_ok:
        raise ValueError("a fee in lieu on the value basis needs an accepted replacement stock entry to value")
    o = options_ok[0]
    ref = Decimal(str(o.value_per_tree_usd))
    cap = Decimal(str(float(ctx.stock_capital_value(o.species_code, o.dbh_in, basis))))
    if ctx.options["value_basis"] == basis:
        return Decimal(str(unmet)), f"unmet value on the capital basis {basis}"
    trees_eq = Decimal(str(unmet)) / ref
    amount = cents(trees_eq * cap)
    return amount, (
        f"unmet {unmet:,.2f} {ctx.options['value_unit']} = {trees_eq:.4f} x {o.species_code} "
        f"{o.dbh_in:g} in (at {ref:,.2f}); each worth ${cap:,.2f} on the capital basis {basis}"
    )


def fee_schedule(opts: Any, on: Any = None) -> Any:
    """The fee schedule of payments in lieu (§208-24C) the options name (``fee_schedule``, ``fee_per_tree_usd``),
    the one in force on ``on`` (a date; None: the latest)."""
    village = getattr(opts, "fee_schedule_in_force", None)
    if village and opts.fee_schedule in (None, "") and opts.fee_per_tree_usd in (None, ""):
        return load_fee_schedule(dict(village))  # the Village's, as the register holds it on the date
    return load_fee_schedule(opts.fee_schedule, fee_per_tree_usd=opts.fee_per_tree_usd, on=on)
