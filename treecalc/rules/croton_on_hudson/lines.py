"""The statement's lines of Chapter 208 and the per-tree columns, each naming its section."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from treecalc.frames import actions_read as _acts
from treecalc.frames import dbh_range, flag, set_text
from treecalc.frames import some_tags as _some_tags
from treecalc.law import access as _access
from treecalc.results import Permit
from treecalc.results import line as L_
from treecalc.rules.croton_on_hudson.cite import cited, paragraph, provision, subsection, whole
from treecalc.rules.croton_on_hudson.offences import OffenceResult
from treecalc.rules.croton_on_hudson.penalties import PenaltyResult, _int_column
from treecalc.rules.croton_on_hudson.permit import _meets, _street_proposed
from treecalc.rules.croton_on_hudson.readings import (
    note_20c,
    note_21f,
    note_22g,
    note_29f,
    note_multistem,
    note_street_approval,
    warranty_years,
)
from treecalc.rules.croton_on_hudson.words import _pct

if TYPE_CHECKING:  # the assessment's context, as a type only: the assessment calls the rules
    from treecalc.rules.context import Context


def _tree_columns(trees: pd.DataFrame, off: OffenceResult, pen: PenaltyResult) -> None:
    trees["offence"] = off.offence
    set_text(trees, "offence_status", np.select([off.definite, off.conditional], ["definite", "conditional"], ""))
    set_text(trees, "offence_sections", off.sections)
    set_text(trees, "offence_depends_on", off.depends_on)
    set_text(trees, "not_offence_reason", off.not_offence_reason)
    set_text(trees, "penalty_tier", pen.tier)
    trees["penalty_base_usd"] = pen.base_usd
    trees["penalty_max_usd"] = _int_column(pen.max_usd)
    trees["criminal_max_usd"] = _int_column(pen.criminal_usd)
    set_text(trees, "criminal_section", pen.criminal_section)


def _site_notes(trees: pd.DataFrame, law: dict[str, Any], off: OffenceResult | None = None) -> list[str]:
    """Notes every output carries when they apply (§208-21F, §208-20C, multi-stem DBH). The first two are
    conditions of a permit: the Village's own work (§208-19B(1)) needs none."""
    act = _acts(trees, off)
    # conditions a permit may carry, not charges: a multi-stem tree meets a bound when either of its two DBH
    # figures does (√Σd², at the stems' precision), as in the permit preview
    _, d = dbh_range(trees)
    village = getattr(off, "village", None)
    work = (act != "retain") & (~village if village is not None else True)
    big, marked = law["conditions"]["licensed_company_over_dbh_in"], law["conditions"]["individually_marked_min_dbh_in"]
    # the comparisons as the law states them ("in excess of", "and greater"): the entries' operators
    notes = []
    if (work & (_meets("conditions.licensed_company_over_dbh_in", d, big) | flag(trees, "landmark"))).any():
        notes.append(note_21f().format(dbh=big))
    if (work & (act == "remove") & _meets("conditions.individually_marked_min_dbh_in", d, marked)).any():
        notes.append(note_20c().format(dbh=marked))
    if "stems" in trees and (pd.to_numeric(trees["stems"], errors="coerce").fillna(1) > 1).any():
        notes.append(note_multistem())
    return notes


def _lines(
    ctx: Context,
    trees: pd.DataFrame,
    law: dict[str, Any],
    permit: Permit,
    off: OffenceResult,
    pen: PenaltyResult,
    rep: Any,
    fund: Any,
) -> list[dict[str, Any]]:
    L = list(ctx.survey_lines)
    unit = ctx.options["value_unit"]
    valuation, sec_f = provision("valuation_method"), cited("replacement.violation_percent")
    L.append(L_(valuation, "Value basis", ctx.options["value_basis_label"], "", "every value below is on this basis"))
    items = ("Permit trigger", "Exception", "Tree removal permit required")
    L += permit.statement_lines(
        whole(cited("permit.more_than_trees_12mo")), items, f"{permit.trees_needing_permit} tree(s) need a permit"
    )
    if _street_proposed(trees, off).any():
        approval = f"{provision('healthy_street_tree')}; {provision('street_removal')}"
        L.append(L_(approval, "Department's written approval", "required", "", note_street_approval()))
    L.append(
        L_(
            whole(cited("replacement.percent")),
            "Trees counted toward replacement",
            int(rep.trees_counted),
            "trees",
            f"{_violation_pct_words(ctx, law)}, "
            f"{_pct(law['replacement']['percent'])} on removals proposed under a permit for "
            f"{law['replacement']['min_trees']} or more trees ({cited('replacement.percent')})",
        )
    )
    ex = trees["exclusion"].to_numpy(object)
    tags = trees["tag"].to_numpy(object)
    for reason in pd.unique(ex[ex != ""]):  # one line per reason, with its trees
        sel = ex == reason
        L.append(
            L_(
                str(reason).rsplit(" ", 1)[-1],
                "Not counted",
                int(sel.sum()),
                "trees",
                f"{reason}: {_some_tags(tags[sel])}",
            )
        )
    for p in rep.parts:
        L.append(L_(p.section, f"Value of the trees in {p.section}", p.value_usd, unit, f"{p.trees} tree(s)"))
        L.append(
            L_(
                p.section,
                f"Value required, {p.section}",
                p.required_value_usd,
                unit,
                f"{p.value_usd:,.2f} x {p.percent:g}%, rounded up to the cent (at least); {p.reason}",
            )
        )
    L.append(L_(valuation, "Value of the trees removed", rep.removed_value_usd, unit))
    L.append(L_(rep.section, "Replacement required", "yes" if rep.required else "no", "", rep.percent_note))
    cond = getattr(rep, "conditional_22f", None)
    if cond:  # the violation's standard on conditional offences: what would be required, never what is
        L.append(
            L_(
                sec_f,
                "Replacement, conditional offences (if established)",
                cond["trees_needed"],
                "trees",
                cond["text"],
            )
        )
    if rep.required:
        _lines_replacement(L, rep, fund, unit, law)
    L.append(L_(provision("bond_forfeited"), "Forfeited bonds", "to the Tree Preservation Fund"))
    _lines_penalties(L, trees, off, pen, ctx)
    return L


def _lines_replacement(L: list[dict[str, Any]], rep: Any, fund: Any, unit: str, law: dict[str, Any]) -> None:
    in_lieu, sec_f = provision("in_lieu"), cited("replacement.violation_percent")
    if rep.percent is not None:
        L.append(
            L_(
                rep.section,
                "Replacement percentage",
                int(rep.percent) if float(rep.percent).is_integer() else rep.percent,
                "%",
                rep.percent_note,
            )
        )
    L.append(
        L_(
            rep.section,
            "Value required of the replacements",
            rep.required_value_usd,
            unit,
            " + ".join(f"{p.required_value_usd:,.2f} ({p.section})" for p in rep.parts),
        )
    )
    for r in rep.stock:
        extra = [x for x in r.get("notes", []) if x.startswith("conifer") or "waiver" in x]
        note = (
            (
                "accepted; value per tree " + f"{r.get('value_per_tree_usd', 0):,.2f} {unit}; unit cost "
                f"${r['unit_cost_usd']:,.2f}"
            )
            if r["accepted"]
            else "refused: " + "; ".join(r["refusals"])
        )
        L.append(
            L_(
                cited("replacement.deciduous_min_dbh_in"),
                "Replacement stock",
                f"{r.get('species_code')} {r.get('dbh_in', 0):g} in"
                + (f", {r['height_ft']:g} ft" if r.get("height_ft") is not None else ""),
                "",
                "; ".join([note] + extra),
            )
        )
    for p in rep.plan:
        L.append(
            L_(
                in_lieu,
                f"Plant {p['species_code']} {p['dbh_in']:g} in",
                p["count"],
                "trees",
                f"{p['count']} x {p['value_per_tree_usd']:,.2f} = {p['planted_value_usd']:,.2f} {unit}; "
                f"cost ${p['cost_usd']:,.2f}",
            )
        )
    L.append(L_(rep.section, "Replacement trees needed", rep.trees_needed, "trees"))
    L.append(L_(in_lieu, "Trees planted", rep.trees_planted, "trees"))
    L.append(L_(in_lieu, "Trees not planted (in lieu)", rep.trees_in_lieu, "trees"))
    L.append(L_(in_lieu, "Planting cost", rep.planting_cost_usd, "USD"))
    if rep.native_share is not None:
        L.append(
            L_(
                provision("native_species"),
                "Native share of the replacements",
                round(rep.native_share * 100, 1),
                "%",
                f"{rep.native_planted} of {rep.trees_planted}",
            )
        )
    # a schedule given directly (the app's Fund page) is known by the words it was set with ("set by Board
    # resolution ..."), the same in the app, the statement and the PDF; a file by its path
    named = fund.placeholder or (fund.source.startswith("given as a dict") and fund.label != "fee schedule")
    L.append(
        L_(provision("fee_schedule"), "Basis of payment in lieu", fund.basis, "", fund.label if named else fund.source)
    )
    L.append(
        L_(
            provision("fund"),
            "Payment in lieu to the Tree Preservation Fund",
            fund.fund_in_lieu_usd,
            "USD",
            fund.calculation,
        )
    )
    if fund.alternative_22f_usd is not None:
        L.append(
            L_(
                sec_f,
                f"Or: payment in place of the {sec_f} replacement",
                fund.alternative_22f_usd,
                "USD",
                fund.alternative_22f_calculation,
            )
        )
    L.append(
        L_(cited("replacement.warranty_years"), "Warranty of the replacements", warranty_years(law), "", note_22g(law))
    )


def _lines_penalties(
    L: list[dict[str, Any]], trees: pd.DataFrame, off: OffenceResult, pen: PenaltyResult, ctx: Context
) -> None:
    a29, b29, b7 = cited("criminal.per_tree_usd"), cited("penalty.civil_tiers"), cited("penalty.doubling_factor")
    offences = whole(a29)
    more, cc = provision("more_than_three_prohibited"), provision("clear_cutting_prohibited")
    street = cited("conditions.street_tree_pruning_min_percent")
    L.append(
        L_(
            offences,
            "Offences, definite (facts given)",
            int(off.definite.sum()),
            "trees",
            f"a–d: removal needing a permit ({subsection(cited('permit.more_than_trees_12mo'))}, "
            f"{more}/{paragraph(cc)}), topping or excessive pruning ({provision('topping_prohibited')}), "
            f"street tree without the Department's approval ({street}/{paragraph(provision('street_removal'))}, "
            f"{provision('healthy_street_tree')}), harm while an application "
            f"was pending ({provision('pending_application')})",
        )
    )
    L.append(
        L_(
            offences,
            "Offences, conditional (on assumed facts)",
            int(off.conditional.sum()),
            "trees",
            "; ".join(sorted(set(off.depends_on[off.conditional]))) or "none",
        )
    )
    for sec, grp in pd.Series(off.sections[off.offence]).value_counts().sort_index().items():
        L.append(L_(str(sec), "Trees harmed in breach of", int(grp), "trees"))
    e = int(((off.not_offence_reason != "") & (_acts(trees, off) == "damaged")).sum())
    if e:
        L.append(
            L_(offences, "Damaged, not an offence by itself", e, "trees", "listed for the Village Engineer, no amount")
        )
    tiers = pd.Series(pen.base_usd[off.definite], index=pen.tier[off.definite])
    for tier, g in tiers.groupby(level=0, sort=True):
        L.append(
            L_(
                str(tier),
                "Civil penalty tier (definite offences)",
                len(g),
                "trees",
                f"up to ${int(g.iloc[0]):,} per tree",
            )
        )
    times = _access.multiplied(ctx.law["penalty"]["doubling_factor"])  # the doubling's factor, "doubled"
    for r in pen.doubling_reasons:
        L.append(L_(b7, f"Fines per tree {times['ed']}", r.replace(f" {b7}", "")))
    if pen.days > 1:
        L.append(L_(b29, "Days of continuing violation", pen.days, "days", "each day a separate offence"))
    L.append(L_(b29, "Civil penalty, maximum", pen.civil_total, "USD", "up to; definite offences only"))
    L.append(
        L_(
            b29,
            "Civil penalty, conditional offences",
            pen.civil_conditional,
            "USD",
            "up to, only if the assumed facts hold; not in the maximum",
        )
    )
    secs = sorted(set(pen.criminal_section[off.definite]))
    L.append(
        L_(
            a29,
            "Criminal fine, maximum",
            pen.criminal_total,
            "USD",
            "up to; definite offences only; " + ("; ".join(secs) if secs else "no offence"),
        )
    )
    L.append(
        L_(
            a29,
            "Criminal fine, conditional offences",
            pen.criminal_conditional,
            "USD",
            "up to, only if the assumed facts hold",
        )
    )
    if pen.civil_pending_literal is not None:
        L.append(
            L_(
                b7,
                "Civil penalty, other reading of 'harmed while an application is pending'",
                pen.civil_pending_literal,
                "USD",
                f"the one tree harmed while pending {times['es']} its own fine (text read to the letter); not applied",
            )
        )
    L.append(
        L_(
            cited("criminal.repeat_within_year_usd"),
            "Criminal fine, other reading of 'subsequent violation'",
            pen.criminal_alternative,
            "USD",
            "every tree after the first of this event at the repeat maximum",
        )
    )
    if off.offence.any():  # a conditional offence holds nothing until its facts are established
        L.append(
            L_(
                provision("no_building_permit"),
                "Building permit / certificate of occupancy",
                "withheld while the violation is open"
                if off.definite.any()
                else "withheld only if a conditional offence is established",
                "",
                note_29f(),
            )
        )
    L.append(L_(provision("penalties_to_fund"), "Penalties collected", "to the Tree Fund"))
    for n in _site_notes(trees, ctx.law, off):
        L.append(L_(n.split(":")[0] if n.startswith("§") else provision("definitions"), "Note", n))


def _violation_pct_words(ctx: Any, law: dict[str, Any]) -> str:
    """The §208-22F percentage applied: the Village Engineer's when given ("such other percentage"), else the law's."""
    given = ctx.opts.replacement_percent
    sec_f = cited("replacement.violation_percent")
    if given is None:
        return f"{_pct(law['replacement']['violation_percent'])} on trees harmed in offences ({sec_f})"
    return f"{_pct(given)} on trees harmed in offences ({sec_f}, the Village Engineer's percentage)"
