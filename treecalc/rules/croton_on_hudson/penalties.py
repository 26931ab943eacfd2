"""§208-29B civil penalties (the tiers and their doubling, §208-29B(7)) and §208-29A criminal fines."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from treecalc.frames import actions_read as _acts
from treecalc.frames import dbh_range, flag_given, some_tags
from treecalc.frames import flag as _flag
from treecalc.frames import isin as _isin
from treecalc.frames import map_unique as _map_unique
from treecalc.frames import pick as _pick
from treecalc.law import readings
from treecalc.law.access import multiplied
from treecalc.results import Penalties, Records
from treecalc.rules.croton_on_hudson.cite import cited, provision, through, tier
from treecalc.rules.croton_on_hudson.offences import OffenceResult, offences
from treecalc.rules.croton_on_hudson.permit import PermitResult, _meets
from treecalc.rules.croton_on_hudson.readings import (
    note_29f,
    offence_reading_208,
    other_prohibitions_208,
    penalty_setter,
    pending_literal_note,
)
from treecalc.rules.croton_on_hudson.words import _tier_bounds, _years
from treecalc.schema import DONE


@dataclass
class PenaltyResult:
    offence: np.ndarray
    tier: np.ndarray
    base_usd: np.ndarray  # integer dollars per tree, before doubling
    max_usd: np.ndarray  # per tree after doubling x days (Python ints: never wraps)
    criminal_usd: np.ndarray  # per tree x days (Python ints)
    criminal_section: np.ndarray
    doubled: bool
    doubling_reasons: list[str]
    days: int
    civil_total: int = 0  # definite offences only
    civil_conditional: int = 0  # added if the assumed facts hold
    criminal_total: int = 0
    criminal_conditional: int = 0
    criminal_alternative: int = 0  # "second and each subsequent" read per tree of one event
    # the doubling read to the letter: the one tree harmed while an application was pending doubles its own
    # fine (None: that reading gives the same figure as the one applied)
    civil_pending_literal: int | None = None
    doubled_if_assumed: bool = False
    conditional_reasons: list[str] = field(default_factory=list)


def civil_tiers(trees: pd.DataFrame, law: dict[str, Any], given_only: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """§ 208-29B(1)-(6): the highest tier that applies to each tree (section, integer dollars). ``given_only``: the
    tiers on the flag cells given, a cell neither yes nor no ("maybe") read as no, and a multi-stem tree at the
    lower of its two DBH figures (√Σd² and at the stems' precision: "up to and including eight inches" holds for
    8.0056 in measured as 8.0), the definite maximum's tier; else at the higher (the conditional figures)."""
    flag = flag_given if given_only else _flag
    pen = law["penalty"]
    d_lo, d_hi = dbh_range(trees)
    d = d_lo if given_only else d_hi
    n = len(trees)
    # (6) DEC protected native plants: threatened and endangered species are protected native plants
    # (ECL § 9-1503, 6 NYCRR 193.3), so the flag of the threatened-or-endangered permit trigger is read here too
    t6_cols = ["conservation_area", "protected_native", "threatened_endangered"] + (
        ["regulated_buffer_zone"]
        if readings("croton_on_hudson")["penalty"].get("tier6_includes_regulated_buffer_zone")
        else []
    )
    # "up to and including" (the bracket's operator): a tree in no earlier row is in the next
    up_to = [_meets("penalty.civil_tiers.max_dbh_in", d, pen[f"tier{i}_max_dbh_in"]) for i in (1, 2)]
    size = np.select(
        up_to,
        [pen["tier1_usd"], pen["tier2_usd"]],
        pen["tier3_usd"],
    ).astype(np.int64)
    size_sec = _pick(up_to, [tier(1), tier(2)], tier(3))
    amounts = np.column_stack(
        [
            size,
            np.where(flag(trees, "street_tree", "wetland", "excessively_steep_slope"), int(pen["tier4_usd"]), 0),
            np.where(flag(trees, "landmark"), int(pen["tier5_usd"]), 0),
            np.where(flag(trees, *t6_cols), int(pen["tier6_usd"]), 0),
        ]
    ).astype(np.int64)
    pick = amounts.argmax(axis=1) if n else np.zeros(0, dtype=int)
    labels = np.array(["", tier(4), tier(5), tier(6)], dtype=object)[pick]
    labels = np.where(pick == 0, size_sec, labels)
    return labels.astype(object), amounts[np.arange(n), pick] if n else np.zeros(0, dtype=np.int64)


def _doubling(
    law: dict[str, Any], pr: PermitResult, n_off: int, pending_harm: bool, clear_cutting: bool | None = None
) -> list[str]:
    """§ 208-29B(7): the reasons the fines per tree are doubled (empty: not doubled)."""
    pen = law["penalty"]
    b7, clear_cutting_def = cited("penalty.doubling_factor"), cited("permit.clear_cutting_min_trees")
    reasons = []
    if _meets("penalty.doubling_more_than_trees", n_off, pen["doubling_more_than_trees"]):
        reasons.append(
            f"more than {pen['doubling_more_than_trees']} regulated trees harmed without a permit ({n_off}) {b7}"
        )
    if pr.clear_cutting if clear_cutting is None else clear_cutting:
        reasons.append(
            f"clear cutting determined by the Village Engineer ({clear_cutting_def}) {b7}"
            if pr.clear_cutting_determined
            else f"clear cutting took place ({clear_cutting_def}) {b7}"
        )
    if pending_harm:
        reasons.append(f"trees harmed while a permit application was pending ({provision('pending_application')}) {b7}")
    return reasons if n_off else []


def penalties(
    trees: pd.DataFrame,
    site: dict[str, Any],
    law: dict[str, Any],
    pr: PermitResult,
    off: OffenceResult | None = None,
    *,
    application_pending: bool = False,
    continuing_days: int = 1,
) -> PenaltyResult:
    """§ 208-29B civil maxima per tree (highest tier, doubling (7), days) and § 208-29A criminal maxima.

    Definite offences make the maxima; conditional ones (resting on an assumed fact) are summed
    apart, with the doubling they would bring. Money is summed in Python integers: a day count
    of any size never wraps.
    """
    if int(continuing_days) != continuing_days or continuing_days < 1:
        raise ValueError(f"continuing_days must be a whole number >= 1, got {continuing_days!r}")
    days = int(continuing_days)
    site = {**site, "application_pending": bool(application_pending or site.get("application_pending"))}
    if off is None:
        off = offences(trees, site, law, pr)
    pen = law["penalty"]
    act = _acts(trees, pr)
    tier_all, base_all = civil_tiers(trees, law)
    tier_all = np.where(off.offence, tier_all, "")  # object arrays both: the texts are not copied
    base_all = np.where(off.offence, base_all, 0).astype(np.int64)
    # a definite offence is priced at the tier its given flags reach: a tier resting on a cell neither yes nor no
    # ("maybe") is in the conditional figures only
    doubt = "flags_unclear" in trees or "dbh_at_precision_in" in trees
    tier_g, base_g = civil_tiers(trees, law, given_only=True) if doubt else (tier_all, base_all)
    tier = np.where(off.definite, tier_g, tier_all)
    base = np.where(off.definite, base_g, base_all).astype(np.int64)
    # B(7) "if any tree is ... removed ... while an application is pending": the harm that is itself the
    # pending application's own offence is not counted again as its aggravation. It doubles when two or more trees were harmed
    # while pending, or a tree harmed while pending broke another provision too.
    done = _isin(act, DONE)
    # the other provision broken must rest on facts given for the definite maximum (a parcel trigger's breach on
    # assumed parcel facts doubles only the conditional figure)
    other = off.other_than_pending if off.other_than_pending is not None else off.offence
    other_given = off.other_than_pending_given if off.other_than_pending_given is not None else off.definite
    pending = site["application_pending"] and int(done.sum()) >= 2
    pending_harm = pending or (site["application_pending"] and bool((done & other).any()))
    pending_harm_given = pending or (site["application_pending"] and bool((done & other_given).any()))
    # B(7) counts the trees "cut down, removed, topped, excessively pruned, injured, damaged ...": a street tree
    # pruned short of excessive pruning (without the Department's approval) is an offence of its own, no such harm
    reasons = _doubling(law, pr, int((off.definite & done).sum()), pending_harm_given, pr.clear_cutting_given)
    cc_all = pr.clear_cutting_conditional
    reasons_all = _doubling(law, pr, int((off.offence & done).sum()), pending_harm, cc_all)
    f_def = int(pen["doubling_factor"]) if reasons else 1
    f_all = int(pen["doubling_factor"]) if reasons_all else 1
    per_tree = _times_days(np.where(off.definite, base * f_def, base * f_all), days)
    civil_def = int(base[off.definite].sum()) * f_def * days
    literal = None
    if site["application_pending"] and not reasons and bool((done & off.definite).any()):
        literal = civil_def * int(pen["doubling_factor"])
    civil_all = int(base_all[off.offence].sum()) * f_all * days
    # the criminal maxima: violations of the prohibitions (more than three and clear cutting removals; topping or
    # excessive pruning) up to the higher maximum per tree; otherwise the plain one, or the repeat one for a second
    # violation within the window (given)
    crim = law["criminal"]
    per = int(crim["per_tree_usd"])
    sec = cited("criminal.per_tree_usd")
    if site.get("prior_violation_within_year"):
        per, sec = (
            int(crim["repeat_within_year_usd"]),
            f"{cited('criminal.repeat_within_year_usd')} (second violation within "
            f"{_years(crim['repeat_window_years'])})",
        )
    per18 = max(per, int(crim["section_208_18_usd"]))
    broke = off.breaks_208_18 != ""  # a definite offence's on counts of facts given (no unclear cell)
    broke_all = off.breaks_208_18_if_assumed if off.breaks_208_18_if_assumed is not None else broke
    amount_all = np.where(off.offence, np.where(broke_all, per18, per), 0).astype(np.int64)
    amount = np.where(off.offence, np.where(broke, per18, per), 0).astype(np.int64)
    crim_sec = np.where(off.offence, _map_unique(off.sections, lambda t: _criminal_section(str(t), sec)), "")
    criminal = _times_days(amount, days)
    crim_def = int(amount[off.definite].sum()) * days
    crim_all = int(amount_all[off.offence].sum()) * days
    # the other reading of "second and each subsequent violation": every definite tree after the first
    # of this event (not a violation of the prohibitions) at the repeat maximum
    k = int((off.definite & ~broke).sum())
    alt = (
        int(amount[off.definite & broke].sum()) + (per + int(crim["repeat_within_year_usd"]) * (k - 1) if k else 0)
    ) * days
    res = PenaltyResult(
        off.offence,
        tier,
        base,
        per_tree,
        criminal,
        crim_sec,
        bool(reasons),
        reasons,
        days,
        civil_total=civil_def,
        civil_conditional=civil_all - civil_def,
        criminal_total=crim_def,
        criminal_conditional=crim_all - crim_def,
        criminal_alternative=alt,
        civil_pending_literal=literal,
        doubled_if_assumed=bool(reasons_all),
        conditional_reasons=reasons_all,
    )
    return res


def _size_tier_shifted(trees: pd.DataFrame, law: dict[str, Any]) -> np.ndarray:
    """Per tree, its two DBH figures (:func:`dbh_range`) in different § 208-29B size tiers."""
    lo, hi = dbh_range(trees)
    if lo is hi:
        return np.zeros(len(trees), dtype=bool)
    pen = law["penalty"]

    def tier(d: np.ndarray) -> np.ndarray:
        return sum(
            (~_meets("penalty.civil_tiers.max_dbh_in", d, pen[f"tier{i}_max_dbh_in"])).astype(int) for i in (1, 2)
        )

    return np.asarray(tier(lo) != tier(hi), dtype=bool)


def _times_days(per_day: np.ndarray, days: int) -> np.ndarray:
    """Integer dollars x days: int64 when the product fits, else exact Python ints (never wraps)."""
    top = int(per_day.max()) if len(per_day) else 0
    if top * days < 2**62:
        return per_day.astype(np.int64) * np.int64(days)
    return per_day.astype(object) * days


#: The prohibitions whose violation has the higher criminal maximum (``criminal.section_208_18_usd``), by their
#: records: more than three removals, clear cutting, topping or excessive pruning (the ones an offence can break).
PROHIBITIONS = ("more_than_three_prohibited", "clear_cutting_prohibited", "topping_prohibited")


def _criminal_section(sections: str, plain: str) -> str:
    """§ 208-29A for one tree: "(violation of §208-18x)" when it broke § 208-18, else the provisions broken."""
    if not sections:
        return ""
    prohibitions = {provision(k) for k in PROHIBITIONS}
    b18 = [x for x in sections.split("; ") if x in prohibitions]
    return f"{cited('criminal.section_208_18_usd')} (violation of {'; '.join(b18)})" if b18 else f"{plain} ({sections})"


def _int_column(values: np.ndarray) -> np.ndarray:
    """Integer dollars: int64 already, or Python ints when a day count makes them too large (never wraps)."""
    return values


def _plain_records(df: pd.DataFrame) -> Any:
    """Rows as dicts of plain Python values (ints, floats, str), made when read (:class:`Records`)."""
    return Records({c: df[c].to_numpy(object) for c in df.columns})


def _penalty_findings(
    trees: pd.DataFrame,
    site: dict[str, Any],
    law: dict[str, Any],
    pr: PermitResult,
    off: OffenceResult,
    pen: PenaltyResult,
) -> Any:
    act = _acts(trees, pr)
    tags = trees["tag"].to_numpy(object)
    o, x = off.offence, off.not_offence_reason != ""
    per_tree = _plain_records(
        pd.DataFrame(
            {
                "tag": tags[o],
                "species_code": trees["species_code"].to_numpy(object)[o],
                "dbh_in": trees["dbh_in"].to_numpy(float)[o],
                "action": act[o],
                "status": np.where(off.definite[o], "definite", "conditional").astype(object),
                "offence_sections": off.sections[o],
                "depends_on": off.depends_on[o],
                "tier": pen.tier[o],
                "base_usd": pen.base_usd[o],
                "max_usd": pen.max_usd[o],
                "criminal_max_usd": pen.criminal_usd[o],
                "criminal_section": pen.criminal_section[o],
            },
            dtype=object,
        )
    )
    not_off = _plain_records(
        pd.DataFrame(
            {
                "tag": tags[x],
                "species_code": trees["species_code"].to_numpy(object)[x],
                "action": act[x],
                "reason": off.not_offence_reason[x],
            },
            dtype=object,
        )
    )
    crim_secs = sorted(
        {
            s.strip()
            for x in pd.unique(pen.criminal_section[off.offence])
            for s in str(x).replace("(", ";").replace(")", ";").replace("violation of", ";").split(";")
            if s.strip().startswith("§")
        }
    )
    crim = law["criminal"]
    times = multiplied(law["penalty"]["doubling_factor"])  # the doubling's factor in words: "doubled"
    a29, b29 = cited("criminal.per_tree_usd"), cited("penalty.civil_tiers")
    notes = [
        f"maxima: 'up to' — {penalty_setter(law)}",
        f"each day of a continuing violation is a separate offence ({a29}, {b29})",
        f"penalties collected are deposited in the Tree Fund ({provision('penalties_to_fund')})",
        offence_reading_208(),
        other_prohibitions_208(),
        "definite offences rest only on facts given (survey columns, the Site sheet, flags); a conditional "
        "offence rests on an assumed fact, named per tree, and its amount is summed apart "
        "(civil_penalty_conditional_usd); the maxima count definite offences only",
        f"{cited('criminal.repeat_within_year_usd')} 'second and each subsequent violation within a {_years(crim['repeat_window_years'], True)} period' is read from the site fact "
        f"prior_violation_within_year (when given yes: up to ${int(crim['repeat_within_year_usd']):,} per tree). Other "
        f"reading: every tree after the first of this event is a subsequent violation: "
        f"${pen.criminal_alternative:,} (definite offences)",
    ]
    shifted = _size_tier_shifted(trees, law) & off.offence
    if shifted.any():
        notes.append(
            f"{through(tier(1), tier(3))} {_tier_bounds(law)}: {int(shifted.sum())} "
            f"multi-stem tree(s) ({some_tags(tags[shifted])}) whose √Σd² and DBH at the stems' precision fall in "
            "different tiers are priced at the lower in the maximum; the higher tier is in the conditional figures "
            "only (Readings, multi-stem trees)"
        )
    if off.definite.any():
        notes.append(note_29f())
    elif off.offence.any():
        notes.append(note_29f() + ", once a conditional offence is established")
    if pen.civil_pending_literal is not None:
        notes.append(pending_literal_note().format(usd=pen.civil_pending_literal, **times))
    if pen.civil_conditional and pen.doubled_if_assumed and not pen.doubled:
        notes.append(
            f"the conditional offences would also {times['verb']} the fines per tree ({cited('penalty.doubling_factor')}): "
            + "; ".join(pen.conditional_reasons)
        )
    return Penalties(
        civil_penalty_max_usd=pen.civil_total,
        civil_penalty_conditional_usd=pen.civil_conditional,
        criminal_fine_max_usd=pen.criminal_total,
        criminal_fine_conditional_usd=pen.criminal_conditional,
        fine_max_usd=None,  # Chapter 95's: Chapter 208 has civil penalties and criminal fines instead
        fine_conditional_usd=None,
        doubled=pen.doubled,
        doubling_reasons=pen.doubling_reasons,
        continuing_days=pen.days,
        offences=int(off.offence.sum()),
        offences_definite=int(off.definite.sum()),
        offences_conditional=int(off.conditional.sum()),
        per_tree=per_tree,
        not_offences=not_off,
        criminal_sections=[a29] + [s for s in crim_secs if s != a29],
        criminal_alternative_usd=pen.criminal_alternative,
        clear_cutting=pr.clear_cutting,
        notes=notes,
        sections=[a29, b29, provision("no_building_permit"), provision("penalties_to_fund")],
    )
