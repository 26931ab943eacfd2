"""Croton-on-Hudson Chapter 208 (Local Law Intro. No. 4 of 2025): permits, offences, replacement, penalties.

Pure rules on a table of trees and a dict of site facts; every number comes from
``data/law/croton_on_hudson/ch208_trees.toml``, readings ``data/readings/croton_on_hudson.toml`` and every finding names its section. Valuation
(what a tree is worth) is not here: see :mod:`treecalc.assessment`, which values the
trees and calls :func:`assess`.

Tree ``action`` values: ``retain``; ``remove`` (proposed: a permit application);
``removed``, ``topped``, ``excessively_pruned``, ``damaged`` (done: harmed already);
``transplant`` (moved, not removed: no harm assessed). The module follows the chapter:
permit triggers (§ 208-19), offences (§ 208-5, -11, -14, -18, -20F through § 208-29),
civil and criminal penalties (§ 208-29B, A), replacement (§ 208-22) and the fund (§ 208-24).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from treecalc.frames import actions, dbh, flag, set_text
from treecalc.frames import actions_read as _acts
from treecalc.frames import isin as _isin
from treecalc.frames import labels as _labels
from treecalc.frames import map_unique as _map_unique
from treecalc.frames import pick as _pick
from treecalc.frames import some_tags as _some_tags
from treecalc.ingest.site import fact_bool as parse_bool
from treecalc.ingest.site import resolve_site, site_defaults
from treecalc.law import entry
from treecalc.law.schema import compare
from treecalc.money import cents_sum, round_cents
from treecalc.results import Findings, Permit
from treecalc.rules import law_data as _law_data
from treecalc.schema import ACTIONS, DONE, HARMED, PRUNING, REMOVALS
from treecalc.units import cents, percent_of_up, round2

if TYPE_CHECKING:  # the assessment's context, as a type only: the assessment calls the rules
    from treecalc.assessment import Context

__all__ = ["ACTIONS", "DONE", "HARMED", "PRUNING", "REMOVALS", "actions", "dbh", "flag", "parse_bool"]

#: The law's numbers the sentences below are filled from (a template per sentence: an amendment of the data
#: changes what they say). Read once, at import, from the data folder (TREECALC_DATA).
_LAW = _law_data.law("croton_on_hudson")
_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def _usd(x: Any) -> str:
    """$5,000 (whole dollars as the ordinance writes them), $1,234.50 otherwise."""
    v = Decimal(str(x))
    return f"${v:,.0f}" if v == v.to_integral_value() else f"${v:,.2f}"


def _pct(x: Any) -> str:
    return f"{float(x):g}%"


def _words(n: Any) -> str:
    """A count as the ordinance spells it ("three"), digits past twelve."""
    k = int(n)
    return _WORDS[k] if 0 <= k < len(_WORDS) else str(k)


_C, _R, _P = _LAW["criminal"], _LAW["replacement"], _LAW["penalty"]

#: Site facts this module reads, with the reading assumed when a fact is not given.
#: The default is the *conservative* reading (the one under which the law protects
#: the trees), except where no such reading exists (counts of earlier events).
#: Why each site fact not given is assumed as it is, in this chapter's words (``[site_why]`` of
#: ``data/law/croton_on_hudson/ch208_trees.toml``, readings ``data/readings/croton_on_hudson.toml``); the assumed values themselves have one home,
#: :data:`treecalc.ingest.site.SITE_ASSUMED` (``data/readings/site_facts.toml``).
SITE_DEFAULTS: dict[str, tuple[Any, str]] = site_defaults("croton_on_hudson", _LAW["site_why"])


#: Survey flags only another chapter reads (Wesley Hills §95-3A(1)(e)): no assumption of this chapter names them.
OTHER_LAW_FLAGS = ("within_20ft_of_lot_line",)


TRIGGER_TEXT = {
    "§208-19A(1)": "more than {n} trees removed on the lot within 12 months ({count}, including {prior} earlier)",
    "§208-19A(2)": "{dbh:g} in DBH or more on a parcel that {why}",
    "§208-19A(3)": "{dbh:g} in DBH or more on a slope over {slope:g}%",
    "§208-19A(4)": "{dbh:g} in DBH or more in a wetland, watercourse or their buffer (§227-3)",
    "§208-19A(5)": "threatened or endangered species (NYS DEC), any size",
    "§208-19A(5) if": "a DEC protected native plant whose threatened or endangered status is not given: a permit, "
    "any size, if it is threatened or endangered",
    "§208-19A(6)": "landmark tree, any size",
    "§208-19A(7)": "{dbh:g} in DBH or more in a regulated buffer zone",
    "§208-19A(8)": "clear cutting: {count} trees removed without a permit{prior} (§208-17, {n} or more)",
    "§208-19A(8) determined": "clear cutting determined by the Village Engineer (§208-17)",
}

EXCEPTIONS = {
    "village_work": ("§208-19B(1)", "work done by or on behalf of the Village: no permit required"),
    "row_or_emergency": (
        "§208-19B(2)",
        "right-of-way maintenance, fire control or emergency removal by the appropriate agency: no permit required",
    ),
    "planning_board_approval": (
        "§208-19E",
        "removal in conjunction with an approved subdivision plat, site "
        "plan, wetlands or steep slope permit: no separate permit required",
    ),
}

#: Each reading of unclear text this chapter's assessment applies: (section, reading), stated in README
#: ("Readings"), the JSON (``readings``), the statement's Method sheet and the printable report.
READING_ITEMS: list[tuple[str, str]] = [
    (
        "§208-17",
        "§208-17 REGULATED BUFFER ZONE: the widths per zoning district were lost in the text received; treecalc "
        "reads the survey's regulated_buffer_zone flag as given.",
    ),
    (
        "§208-19A(5)",
        "§208-19A(5) 'any threatened or endangered species of tree ... as defined by the New York State "
        "Department of Environmental Conservation' is read from the survey flag threatened_endangered (headers "
        "'Threatened or endangered', 'T&E', 'Endangered'). A DEC protected native plant (protected_native: 'DEC "
        "protected native plant', 'Protected native', 'Exploitably vulnerable') is no trigger: a wider list "
        "(endangered, threatened, rare and exploitably vulnerable plants, ECL 9-1503). A protected native removed"
        " with no other trigger is no offence; when its threatened or endangered status is not given (no column, "
        "a blank cell) the offence is conditional on that status.",
    ),
    (
        "§208-19B",
        "§208-19B: the exceptions of Intro. 4 of 2025 are Village work (B(1)) and right-of-way, fire and "
        "emergency removals (B(2)), with Planning Board approvals deemed permits (§208-19E); dead, diseased and "
        "hazardous trees are standards for granting a permit (§208-19D(1), (5)), not exceptions.",
    ),
    (
        "§208-19B(1)",
        "§208-19B(1) ('no tree removal permit shall be required for work done by or on behalf of the Village'), "
        "§208-5B/C/D and §208-11 (which bind persons 'other than the Village of Croton-on-Hudson or its "
        "designated agents'): with village_work given yes (a site fact, or a tree's own cell: 'Village work', 'By"
        " Village', 'Village ROW work') none of those trees is an offence under any provision, they are no part "
        "of the lot's counts of removals (§208-19A(1), clear cutting §208-17) or of the §208-29B(7) doubling, "
        "carry no replacement (§208-22A needs a permit, §208-22F a violation) and hold no building permit "
        "(§208-29F). Under a site-wide exception that needs no permit (§208-19B(1), B(2), E) the removals are not"
        " clear cutting ('without the benefit of a ... permit'), unless the Village Engineer has determined it.",
    ),
    (
        "§208-19A(1), (8)",
        "§208-19A(1) and (8): a tree already removed is judged on the removals already done (with the lot's "
        "earlier ones); a proposed removal on all removals, proposed included. Both count removals only: a topped"
        " or damaged tree still stands and is no part of 'more than three trees' removed or of clear cutting "
        "('the removal of four or more trees'). A tree already removed under its own permit is no part of the "
        "count a removal already made is judged on (§208-18A: 'more than three (3) trees ... without first "
        "obtaining a tree removal permit'): four removed, one under its own permit, are three without one.",
    ),
    (
        "§208-17",
        "§208-17 CLEAR CUTTING ('removal of four or more trees from a property without ... a current and valid "
        "tree removal permit') has no 12-month window and counts only removals made without a permit: the "
        "survey's removals plus the site fact prior_removals_without_permit (default 0). Where the Village "
        "Engineer has determined clear cutting (--clear-cutting), that determination is applied as given.",
    ),
    (
        "§208-29A/B",
        "§208-29A/B reach anyone who 'otherwise violates any of the provisions of this chapter'. A harmed tree is"
        " an offence when, without authorisation: (a) it was removed and §208-19A required a permit (clear "
        "cutting §208-18C, more than three §208-18A); (b) it was topped or excessively pruned — 25% or more of "
        "its leaf, stem or root area (§208-17) — whatever its size or place (§208-18D; street and public trees "
        "also §208-11); (c) it is a street/public tree pruned, removed or otherwise disturbed without the "
        "Department's written approval (§208-5C/D, §208-14); (d) it was harmed in any way while a permit "
        "application was pending (§208-20F: 'any tree regulated by this chapter'; the TREE definition covers "
        "every species, so no size or flag is needed); (e) any other injury or damage is not an offence by "
        "itself: it is listed for the Engineer with the reason and no amount.",
    ),
    (
        "§208-29",
        "Authorisation: the site fact permit_held (a current, valid permit covering the work) or the tree's own "
        "permit cell (headers 'Permit', 'Permit no.', 'Permit #', 'Permitted', 'Under permit'; yes/no, a permit "
        "number reads yes) authorises (a), (b) and (d); the Department's written approval (site fact or per-tree "
        "department_approval) authorises (c). A tree removed under its own permit is no offence and carries "
        "nothing; proposed under it, only the §208-22A part. A permit or approval not given (a blank cell "
        "included) is taken as not held (it is the owner's to show) and the assumption is stated. A transplanted "
        "tree is not a removal.",
    ),
    (
        "§208-29",
        "Penalties only on established facts: an offence whose permit trigger rests on a fact that was assumed "
        "(the parcel facts of §208-19A(2), a protected native plant's threatened or endangered status) is "
        "conditional: listed with the fact it depends on, its amount summed apart (civil_penalty_conditional_usd,"
        " criminal_fine_conditional_usd). The maxima count definite offences only, and §208-29F withholds "
        "building permits only once an offence is established. The permit preview keeps the reading that needs a "
        "permit.",
    ),
    (
        "§208-29B",
        "§208-29B: each offence tree at the highest tier that applies ((1)-(6)); B(7) doubles the fines per tree "
        f"when more than {_words(_P['doubling_more_than_trees'])} regulated trees were harmed without a permit (every tree of (a)-(d), not only "
        "removals), when clear cutting took place, or when any tree was harmed while an application was pending "
        "(the harm that is itself the §208-20F offence is not counted again as its aggravation: the pending "
        "clause doubles when two or more trees were harmed while pending, or a tree harmed while pending broke "
        "another provision too). Days of a continuing violation multiply.",
    ),
    (
        "§208-29A",
        f"§208-29A: up to {_usd(_C['per_tree_usd'])} per offence tree; up to {_usd(_C['section_208_18_usd'])} for "
        "each violation of §208-18 (topping or excessive pruning §208-18D, more than "
        f"{_words(_LAW['permit']['more_than_trees_12mo'])} removals §208-18A, clear cutting §208-18C); up to "
        f"{_usd(_C['repeat_within_year_usd'])} per tree when"
        " a prior violation within one year is given (prior_violation_within_year). The other reading of 'second "
        f"and each subsequent violation' (every tree after the first of the same event at "
        f"{_usd(_C['repeat_within_year_usd'])}) is stated as a "
        "note with its figure.",
    ),
    (
        "§208-22",
        f"§208-22: required value = {_pct(_R['violation_percent'])} (or the Engineer's percentage, §208-22F) of "
        "the value of the trees harmed"
        f" in offences plus {_pct(_R['percent'])} (§208-22A) of the value of the trees proposed for removal under a "
        f"permit covering {_words(_R['min_trees'])} or more trees. A lawful removal that needs no permit carries nothing; a tree only damaged without "
        "an offence carries nothing. The §208-22E exclusions (invasive, good forestry) apply to both parts.",
    ),
    (
        "§208-22F",
        "§208-22F ('if an applicant has violated this chapter ... the replacement tree standard is "
        f"{_pct(_R['violation_percent'])} of the "
        "environmental value of the trees cut down, removed, topped ...') measures the trees harmed in the "
        "violation. An earlier violation within one year (prior_violation_within_year) whose trees are not in "
        "this survey does not raise the replacement of this survey's proposed removals (they stay at §208-22A); "
        "it raises the §208-29A criminal maximum.",
    ),
    (
        "§208-22D/F, §208-24",
        "§208-22D/F, §208-24: a payment 'equivalent to the value of the trees which cannot be planted' is a "
        "capital sum. With fee-schedule basis value, the schedule names its capital basis (value_basis = "
        "appraised, the default, or cumulative:N), independent of the assessment's value basis; an annual $/yr "
        "figure is never charged as a one-off payment. The §208-22F alternative payment "
        f"({_pct(_R['violation_percent'])} of the harmed "
        "trees' value) is on the same capital basis.",
    ),
    (
        "§208-29B(6)",
        "§208-29B(6) 'trees designated by the New York State Department of Environmental Conservation as a "
        "protected native plant' prices an offence, it creates none: tier (6) reads protected_native, and "
        "threatened_endangered too (threatened and endangered species are protected native plants, 6 NYCRR "
        "193.3).",
    ),
    (
        "§208-29B(6)",
        "§208-29B(6) 'Designated Buffer Areas' is not defined in Chapter 208: the regulated buffer zone is not "
        "read as one unless data/readings/croton_on_hudson.toml says so.",
    ),
    (
        "§208-17 TREE",
        "Multi-stem trees: the legal DBH thresholds use √Σd² of the stems (the TREE definition says 'in "
        "combination' without a method).",
    ),
    ("§208-18B", "§208-18B (attaching objects that injure a tree) is not assessed: the survey does not record it."),
]
READINGS = [text for _, text in READING_ITEMS]

OTHER_PROHIBITIONS_208 = (
    "Not assessed by treecalc: attaching objects that injure a tree (§208-18B), which the "
    "survey does not record; other damage or injury is listed for the Village Engineer "
    "with no amount (§208-29)."
)

SECTIONS_APPLIED = [
    "§208-5C",
    "§208-5D",
    "§208-11",
    "§208-14",
    "§208-17",
    "§208-18A",
    "§208-18C",
    "§208-18D",
    "§208-19A",
    "§208-19B",
    "§208-19E",
    "§208-20F",
    "§208-22A-G",
    "§208-6A",
    "§208-23C",
    "§208-24",
    "§208-29A",
    "§208-29B",
    "§208-29F",
    "§208-29H",
]

NOT_OFFENCE_VILLAGE = (
    "work done by or on behalf of the Village: no permit required (§208-19B(1)), and §208-5B/C/D and §208-11 "
    "bind persons other than the Village; no offence"
)

OFFENCE_READING_208 = (
    "§208-29: a harmed tree is an offence when, without authorisation, it was removed where "
    "§208-19A required a permit, topped or excessively pruned (§208-18D), a street tree "
    "disturbed without the Department's approval (§208-5C/D, §208-14), or harmed while an "
    "application was pending (§208-20F); other damage is listed for the Engineer, no amount."
)


@dataclass
class PermitResult:
    trigger_text: np.ndarray  # per tree, "; "-joined sections (removals only)
    permit_needed: np.ndarray  # per tree (removals only)
    site_triggers: list[dict[str, Any]]  # {section, text, tags}
    exceptions_applied: list[dict[str, str]]
    removals_12mo: int
    clear_cutting: bool
    notes: list[str] = field(default_factory=list)
    done_removals_12mo: int = 0
    clear_cutting_determined: bool = False  # by the Village Engineer (given), not counted here
    needed_on_given_facts: np.ndarray | None = None  # a trigger that rests on facts given, not assumed
    assumed_facts: list[str] = field(default_factory=list)  # the facts a trigger rests on, assumed
    actions: np.ndarray | None = None  # per tree, the action as normalised once (see _acts)
    depends_on: np.ndarray | None = None  # per tree needing a permit on assumed facts only: the facts, in words
    village: np.ndarray | None = None  # per tree, work done by or on behalf of the Village (§208-19B(1))
    actions_of: Any = field(default=None, repr=False, compare=False)  # weakref to the frame they were read from

    @property
    def required(self) -> bool:
        return bool(self.permit_needed.any())

    @property
    def triggers(self) -> list[list[str]]:
        return [t.split("; ") if t else [] for t in self.trigger_text]


def permit(
    trees: pd.DataFrame,
    site: dict[str, Any],
    law: dict[str, Any],
    *,
    clear_cutting: bool | None = None,
    assumed: frozenset[str] | set[str] = frozenset(),
    not_surveyed: frozenset[str] | set[str] = frozenset(),
) -> PermitResult:
    """§ 208-19A triggers per removal (proposed or done) and for the site; § 208-19B/E exceptions.

    ``assumed``: the site facts not given (:func:`resolve_site` filled them in); ``not_surveyed``: the flags the
    survey has no column for. A tree needs a permit "on given facts" when a trigger holds that rests on no assumed
    fact. The Village's own work (§ 208-19B(1)) needs none, and is no part of the lot's counts ((1), (8)).
    """
    p = law["permit"]
    act = actions(trees)
    village = village_work(trees, site)
    removal_any = _isin(act, REMOVALS)
    removal = removal_any & ~village  # the removals the lot's counts are made of
    n = len(trees)
    d = dbh(trees)
    tags = trees["tag"].to_numpy(object) if "tag" in trees else np.arange(n)
    pairs: list[tuple[str, np.ndarray]] = []
    given = np.zeros(n, dtype=bool)
    site_triggers: list[dict[str, Any]] = []
    assumed_used: list[str] = []
    assumed_pairs: list[tuple[str, np.ndarray]] = []  # (the assumed facts in words, the trees resting on them)

    def add(section: str, mask: np.ndarray, what: str, on_given: bool = True, facts: str = "") -> None:
        nonlocal given
        mask = mask & removal_any
        if not mask.any():
            return
        pairs.append((section, mask))
        if on_given:
            given = given | mask
        else:
            assumed_pairs.append((facts, mask))
        site_triggers.append({"section": section, "text": what, "tags": tags[mask].astype(str).tolist()})

    # (1) more than three trees in the preceding twelve months: this survey's removals plus the lot's earlier ones.
    # A tree already removed is judged on the removals already done, a proposed one on all; one removed under its
    # own permit is not "without first obtaining a tree removal permit" (§208-18A): no fact says it was the fourth
    prior = int(site.get("prior_removals_12mo", 0))
    count = int(removal.sum()) + prior
    done_count = int(((act == "removed") & ~village & ~_tree_yes(trees, "permit")).sum()) + prior
    if count > p["more_than_trees_12mo"]:
        on = ((act != "removed") if done_count <= p["more_than_trees_12mo"] else np.ones(n, dtype=bool)) & ~village
        add(
            "§208-19A(1)", on, TRIGGER_TEXT["§208-19A(1)"].format(n=p["more_than_trees_12mo"], count=count, prior=prior)
        )
    # (2) 8 in or more on a parcel capable of subdivision / without a residence / needing site plan approval
    reasons = _parcel_reasons(site)
    if reasons:
        on_given = any(k not in assumed for _, k in reasons)
        if not on_given:
            assumed_used = [k for _, k in reasons]
        add(
            "§208-19A(2)",
            d >= p["parcel_min_dbh_in"],
            TRIGGER_TEXT["§208-19A(2)"].format(dbh=p["parcel_min_dbh_in"], why=", ".join(w for w, _ in reasons))
            + ("" if on_given else " (assumed: " + ", ".join(assumed_used) + " not given)"),
            on_given,
            ", ".join(assumed_used) + " (§208-19A(2) parcel facts, not given)",
        )
    # (3) 4 in or more on slopes over 20%
    add(
        "§208-19A(3)",
        (d >= p["slope_min_dbh_in"]) & flag(trees, "slope_over_20pct", "excessively_steep_slope"),
        TRIGGER_TEXT["§208-19A(3)"].format(dbh=p["slope_min_dbh_in"], slope=p["slope_percent"]),
    )
    # (4) 4 in or more within a wetland, watercourse or wetland/watercourse buffer
    add(
        "§208-19A(4)",
        (d >= p["wetland_min_dbh_in"]) & flag(trees, "wetland"),
        TRIGGER_TEXT["§208-19A(4)"].format(dbh=p["wetland_min_dbh_in"]),
    )
    # (5) threatened or endangered species, any size. A DEC protected native plant (§208-29B(6)) is a tier, no
    # trigger: its threatened or endangered status not given, a trigger rests on that status (conditional)
    te = flag(trees, "threatened_endangered")
    add("§208-19A(5)", te, TRIGGER_TEXT["§208-19A(5)"])
    te_unknown = flag(trees, "protected_native") & ~te & not_given(trees, "threatened_endangered", not_surveyed)
    add("§208-19A(5)", te_unknown, TRIGGER_TEXT["§208-19A(5) if"], False, TE_NOT_GIVEN)
    # (6) landmark trees, regardless of size
    add("§208-19A(6)", flag(trees, "landmark"), TRIGGER_TEXT["§208-19A(6)"])
    # (7) 4 in or more, trunk wholly or partly in a regulated buffer zone
    add(
        "§208-19A(7)",
        (d >= p["buffer_min_dbh_in"]) & flag(trees, "regulated_buffer_zone"),
        TRIGGER_TEXT["§208-19A(7)"].format(dbh=p["buffer_min_dbh_in"]),
    )
    # (8) clear cutting (§ 208-17), and the § 208-19B/E exceptions
    exceptions, clear_cutting, determined, cc = _exceptions_and_clear_cutting(
        trees, site, p, act, removal, clear_cutting
    )
    for mask, what in cc:
        add("§208-19A(8)", mask, what)

    text = _labels(pairs, n)
    needed = removal & (text != "")  # never the Village's work (§208-19B(1))
    if exceptions:
        needed = np.zeros(n, dtype=bool)
    depends = _labels(assumed_pairs, n)
    return PermitResult(
        text,
        needed,
        site_triggers,
        exceptions,
        count,
        bool(clear_cutting),
        done_removals_12mo=done_count,
        clear_cutting_determined=bool(determined),
        needed_on_given_facts=needed & given,
        assumed_facts=assumed_used,
        actions=act,
        actions_of=weakref.ref(trees),
        depends_on=np.where(needed & ~given, depends, "").astype(object),
        village=village,
    )


def _exceptions_and_clear_cutting(
    trees: pd.DataFrame,
    site: dict[str, Any],
    p: dict[str, Any],
    act: np.ndarray,
    removal: np.ndarray,
    clear_cutting: bool | None,
) -> tuple[list[dict[str, str]], bool, bool, list[tuple[np.ndarray, str]]]:
    """The § 208-19B/E exceptions that apply, and clear cutting (§ 208-17, :func:`_clear_cutting`).

    "The removal of four or more trees from a property without ... a current and valid tree removal permit":
    under a site-wide exception the removals need no permit, so they are no clear cutting unless the Village
    Engineer has determined it.
    """
    exceptions = [{"section": EXCEPTIONS[k][0], "text": EXCEPTIONS[k][1]} for k in EXCEPTIONS if site.get(k)]
    if exceptions and clear_cutting is not True:
        return exceptions, False, False, []
    found, determined, cc = _clear_cutting(trees, site, p, act, removal, clear_cutting)
    return exceptions, found, determined, cc


TE_NOT_GIVEN = (
    "threatened_endangered (§208-19A(5): the protected native plant's threatened or endangered status, not given)"
)


def _parcel_reasons(site: dict[str, Any]) -> list[tuple[str, str]]:
    """§208-19A(2): why the parcel needs a permit for trees of 8 in or more (words, the site fact), if it does."""
    return [
        (w, k)
        for w, k, on in (
            ("can be subdivided", "subdividable", site.get("subdividable")),
            ("has no residential structure", "has_residence", not site.get("has_residence", False)),
            ("would need site plan approval", "site_plan_required", site.get("site_plan_required")),
        )
        if on
    ]


def village_work(trees: pd.DataFrame, site: dict[str, Any]) -> np.ndarray:
    """Per tree, work done by or on behalf of the Village (§208-19B(1)): the site fact, or the tree's own
    ``village_work`` cell (a blank cell is not given: not Village work)."""
    return bool(site.get("village_work", False)) | _tree_yes(trees, "village_work")


def not_given(trees: pd.DataFrame, col: str, not_surveyed: frozenset[str] | set[str] = frozenset()) -> np.ndarray:
    """Per tree, the flag ``col`` not given: the survey has no column for it, or the tree's cell is blank (NA)."""
    if col in not_surveyed or col not in trees:
        return np.ones(len(trees), dtype=bool)
    return trees[col].isna().to_numpy(bool)


def _clear_cutting(
    trees: pd.DataFrame,
    site: dict[str, Any],
    p: dict[str, Any],
    act: np.ndarray,
    removal: np.ndarray,
    clear_cutting: bool | None,
) -> tuple[bool, bool, list[tuple[np.ndarray, str]]]:
    """§208-19A(8)/§208-17: (clear cutting found, determined by the Engineer, the (trees, trigger text) pairs).

    Clear cutting that took place names the trees removed without a permit; the trees proposed for removal
    are named apart, as removals that would be (more) clear cutting without a permit.
    """
    # removed without a permit of their own (``removal`` leaves out the Village's work, §208-19B(1)); a tree
    # under its own permit is no part of clear cutting, done or proposed ("without the benefit of ... a permit")
    removal = removal & ~_tree_yes(trees, "permit")
    done_mask = (act == "removed") & removal
    done_removed = int(done_mask.sum())
    prior_np = int(site.get("prior_removals_without_permit", 0) or 0)
    determined = clear_cutting is True  # the Village Engineer's determination, applied as given
    if clear_cutting is None:
        clear_cutting = bool(
            done_removed > 0
            and done_removed + prior_np >= p["clear_cutting_min_trees"]
            and not site.get("permit_held", False)
        )
    proposed_cc = int(removal.sum()) + prior_np >= p["clear_cutting_min_trees"]
    if not (clear_cutting or proposed_cc):
        return bool(clear_cutting), determined, []
    prior_txt = f", including {prior_np} earlier" if prior_np else ""
    if determined:  # the Engineer's determination is of the property: every removal
        return True, True, [(removal, TRIGGER_TEXT["§208-19A(8) determined"])]
    out = []
    if clear_cutting:
        what = TRIGGER_TEXT["§208-19A(8)"].format(
            count=done_removed + prior_np, prior=prior_txt, n=p["clear_cutting_min_trees"]
        )
        out.append((done_mask, what))
    proposing = (act == "remove") & removal
    proposed, total, n = int(proposing.sum()), int(removal.sum()) + prior_np, p["clear_cutting_min_trees"]
    if proposed:  # the proposed trees named: with the removals already made, the count they would bring
        whole = f"{total} in all{prior_txt}, " if total != proposed else ""
        count = f"the {proposed} proposed trees" if whole else f"{proposed} trees"
        would = f"removing {count} ({whole}{n} or more) without a permit would be clear cutting (§208-17)"
        out.append((proposing, would))
    return bool(clear_cutting), determined, out


def _tree_yes(trees: pd.DataFrame, col: str) -> np.ndarray:
    """A per-tree yes/no column (``permit``, ``department_approval``): True only where it says yes."""
    if col not in trees:
        return np.zeros(len(trees), dtype=bool)
    s = trees[col]
    if pd.api.types.is_bool_dtype(s.dtype):
        return s.astype("boolean").fillna(False).to_numpy(bool)
    txt = s.astype(object).where(s.notna(), "").astype(str).str.strip().str.lower()
    return txt.isin(["1", "true", "yes", "y", "t", "x", "1.0"]).to_numpy(bool)


@dataclass
class OffenceResult:
    """§ 208-29: which harmed trees are offences (a-d of the offence reading, OFFENCE_READING_208) and on what."""

    offence: np.ndarray  # per tree
    definite: np.ndarray  # an offence resting only on facts given
    conditional: np.ndarray  # an offence resting on an assumed fact
    sections: np.ndarray  # per tree, the provisions broken ("; "-joined)
    depends_on: np.ndarray  # per tree, the assumed fact(s) a conditional offence rests on
    breaks_208_18: np.ndarray  # per tree, the § 208-18 prohibition it broke ("" if none)
    not_offence_reason: np.ndarray  # per tree harmed that is no offence: why (§208-29 e)
    other_than_pending: np.ndarray | None = None  # an offence under (a)-(c), besides any § 208-20F
    other_than_pending_given: np.ndarray | None = None  # the same, on facts given only (not a conditional (a))
    actions: np.ndarray | None = None  # per tree, the action as normalised once (see _acts)
    actions_of: Any = field(default=None, repr=False, compare=False)  # weakref to the frame they were read from
    village: np.ndarray | None = None  # per tree, work done by or on behalf of the Village (§208-19B(1))


def offences(trees: pd.DataFrame, site: dict[str, Any], law: dict[str, Any], pr: PermitResult) -> OffenceResult:
    """The trees harmed without authorisation that § 208-29A/B reach ("otherwise violates any of the provisions").

    a. removed where § 208-19A required a permit (clear cutting § 208-18C, more than three § 208-18A);
    b. topped or excessively pruned, any size or place (§ 208-18D; street/public trees § 208-11 too);
    c. a street/public tree pruned, removed or otherwise disturbed without the Department's written
       approval (§ 208-5C/D, § 208-14);
    d. any tree harmed while a permit application was pending (§ 208-20F);
    e. any other injury or damage is no offence by itself: listed with the reason, no amount.

    Authorisation: the site fact ``permit_held`` or a per-tree ``permit`` column (a, b, d);
    the Department's written approval (site fact or per-tree ``department_approval``) for c.
    """
    act = _acts(trees, pr)
    n = len(trees)
    done = _isin(act, DONE)
    removed = act == "removed"
    pruned = _isin(act, PRUNING)
    permitted = bool(site.get("permit_held", False)) | _tree_yes(trees, "permit")
    approved = bool(site.get("department_approval", False)) | _tree_yes(trees, "department_approval")
    street = flag(trees, "street_tree")
    pending = bool(site.get("application_pending", False))
    # § 208-19B(1): work done by or on behalf of the Village needs no permit, and § 208-5B/C/D and § 208-11 bind
    # persons "other than the Village ... or its designated agents": none of its trees is an offence
    village = pr.village if pr.village is not None else village_work(trees, site)
    a = removed & pr.permit_needed & ~permitted & ~village
    a_given = a & (pr.needed_on_given_facts if pr.needed_on_given_facts is not None else pr.permit_needed)
    b = pruned & ~permitted & ~village
    c = street & done & ~approved & ~village
    d = done & ~permitted & ~village if pending else np.zeros(n, dtype=bool)
    offence = a | b | c | d
    definite = a_given | b | c | d
    # § 208-14 forbids removing a *healthy* street tree; a dead one is removed in breach of § 208-5D alone
    dead = trees["dead"].fillna(False).to_numpy(bool) if "dead" in trees else np.zeros(n, dtype=bool)
    conditional = offence & ~definite
    more_than = pr.done_removals_12mo > law["permit"]["more_than_trees_12mo"]
    b18_pairs = [("§208-18C", a & pr.clear_cutting), ("§208-18A", a & more_than), ("§208-18D", b)]
    b18 = _labels(b18_pairs, n)
    sec = _labels(
        [("§208-19A", a)]
        + b18_pairs
        + [
            ("§208-11", b & street),
            ("§208-5C", c & ~removed),
            ("§208-5D", c & removed & dead),
            ("§208-5D; §208-14", c & removed & ~dead),
            ("§208-20F", d),
        ],
        n,
    )
    if pr.depends_on is not None:
        depends = np.where(conditional, pr.depends_on, "").astype(object)
    else:
        depends = _pick([conditional], [", ".join(pr.assumed_facts) + " (§208-19A(2) parcel facts, not given)"])
    authorised = permitted | (street & approved)
    native_only = flag(trees, "protected_native") & ~flag(trees, "threatened_endangered")
    why = _pick(
        [~done | offence, village, act == "damaged", authorised, removed & native_only, removed],
        [
            "",
            NOT_OFFENCE_VILLAGE,
            "injury or damage is not an offence by itself (§208-29): for the Village Engineer to assess, no amount",
            "authorised: permit held or the Department's written approval given",
            "a DEC protected native plant, not threatened or endangered: no permit trigger (§208-19A(5)); "
            "§208-29B(6) prices an offence, it makes none",
            "removal that needed no permit (§208-19A) and broke no other provision",
        ],
    )
    return OffenceResult(
        offence,
        definite,
        conditional,
        sec.astype(object),
        depends.astype(object),
        b18.astype(object),
        why.astype(object),
        other_than_pending=a | b | c,
        other_than_pending_given=a_given | b | c,
        actions=act,
        actions_of=weakref.ref(trees),
        village=village,
    )


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
    # § 208-29B(7) read to the letter: the one tree harmed while an application was pending doubles its own
    # fine (None: that reading gives the same figure as the one applied)
    civil_pending_literal: int | None = None
    doubled_if_assumed: bool = False
    conditional_reasons: list[str] = field(default_factory=list)


def civil_tiers(trees: pd.DataFrame, law: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    """§ 208-29B(1)-(6): the highest tier that applies to each tree (section, integer dollars)."""
    pen = law["penalty"]
    d = dbh(trees)
    n = len(trees)
    # (6) DEC protected native plants: threatened and endangered species are protected native plants
    # (ECL § 9-1503, 6 NYCRR 193.3), so the flag that makes trigger § 208-19A(5) is read here too
    t6_cols = ["conservation_area", "protected_native", "threatened_endangered"] + (
        ["regulated_buffer_zone"] if pen.get("tier6_includes_regulated_buffer_zone") else []
    )
    size = np.select(
        [d <= pen["tier1_max_dbh_in"], d <= pen["tier2_max_dbh_in"]],
        [pen["tier1_usd"], pen["tier2_usd"]],
        pen["tier3_usd"],
    ).astype(np.int64)
    size_sec = _pick(
        [d <= pen["tier1_max_dbh_in"], d <= pen["tier2_max_dbh_in"]], ["§208-29B(1)", "§208-29B(2)"], "§208-29B(3)"
    )
    amounts = np.column_stack(
        [
            size,
            np.where(flag(trees, "street_tree", "wetland", "excessively_steep_slope"), int(pen["tier4_usd"]), 0),
            np.where(flag(trees, "landmark"), int(pen["tier5_usd"]), 0),
            np.where(flag(trees, *t6_cols), int(pen["tier6_usd"]), 0),
        ]
    ).astype(np.int64)
    pick = amounts.argmax(axis=1) if n else np.zeros(0, dtype=int)
    labels = np.array(["", "§208-29B(4)", "§208-29B(5)", "§208-29B(6)"], dtype=object)[pick]
    labels = np.where(pick == 0, size_sec, labels)
    return labels.astype(object), amounts[np.arange(n), pick] if n else np.zeros(0, dtype=np.int64)


def _doubling(law: dict[str, Any], pr: PermitResult, n_off: int, pending_harm: bool) -> list[str]:
    """§ 208-29B(7): the reasons the fines per tree are doubled (empty: not doubled)."""
    pen = law["penalty"]
    reasons = []
    if n_off > pen["doubling_more_than_trees"]:
        reasons.append(
            f"more than {pen['doubling_more_than_trees']} regulated trees harmed without a permit ({n_off}) §208-29B(7)"
        )
    if pr.clear_cutting:
        reasons.append(
            "clear cutting determined by the Village Engineer (§208-17) §208-29B(7)"
            if pr.clear_cutting_determined
            else "clear cutting took place (§208-17) §208-29B(7)"
        )
    if pending_harm:
        reasons.append("trees harmed while a permit application was pending (§208-20F) §208-29B(7)")
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
    tier, base = civil_tiers(trees, law)
    tier = np.where(off.offence, tier, "")  # object arrays both: the texts are not copied
    base = np.where(off.offence, base, 0).astype(np.int64)
    # B(7) "if any tree is ... removed ... while an application is pending": the harm that is itself the
    # § 208-20F offence is not counted again as its aggravation. It doubles when two or more trees were harmed
    # while pending, or a tree harmed while pending broke another provision too.
    done = _isin(act, DONE)
    # the other provision broken must rest on facts given for the definite maximum (a § 208-19A(2) breach on
    # assumed parcel facts doubles only the conditional figure)
    other = off.other_than_pending if off.other_than_pending is not None else off.offence
    other_given = off.other_than_pending_given if off.other_than_pending_given is not None else off.definite
    pending = site["application_pending"] and int(done.sum()) >= 2
    pending_harm = pending or (site["application_pending"] and bool((done & other).any()))
    pending_harm_given = pending or (site["application_pending"] and bool((done & other_given).any()))
    reasons = _doubling(law, pr, int(off.definite.sum()), pending_harm_given)
    reasons_all = _doubling(law, pr, int(off.offence.sum()), pending_harm)
    f_def = int(pen["doubling_factor"]) if reasons else 1
    f_all = int(pen["doubling_factor"]) if reasons_all else 1
    per_tree = _times_days(np.where(off.definite, base * f_def, base * f_all), days)
    civil_def = int(base[off.definite].sum()) * f_def * days
    literal = None
    if site["application_pending"] and not reasons and bool((done & off.definite).any()):
        literal = civil_def * int(pen["doubling_factor"])
    civil_all = int(base[off.offence].sum()) * f_all * days
    # § 208-29A criminal maxima: § 208-18 violations (18A, 18C removals; 18D topping/excessive pruning) up to
    # $5,000 per tree; otherwise $250, or $1,000 for a second violation within one year (given)
    crim = law["criminal"]
    per = int(crim["per_tree_usd"])
    sec = "§208-29A"
    if site.get("prior_violation_within_year"):
        per, sec = int(crim["repeat_within_year_usd"]), "§208-29A (second violation within one year)"
    per18 = max(per, int(crim["section_208_18_usd"]))
    broke = off.breaks_208_18 != ""
    amount = np.where(off.offence, np.where(broke, per18, per), 0).astype(np.int64)
    crim_sec = np.where(off.offence, _map_unique(off.sections, lambda t: _criminal_section(str(t), sec)), "")
    criminal = _times_days(amount, days)
    crim_def = int(amount[off.definite].sum()) * days
    crim_all = int(amount[off.offence].sum()) * days
    # the other reading of "second and each subsequent violation": every definite tree after the first
    # of this event (not a § 208-18 violation) at the repeat maximum
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


def _times_days(per_day: np.ndarray, days: int) -> np.ndarray:
    """Integer dollars x days: int64 when the product fits, else exact Python ints (never wraps)."""
    top = int(per_day.max()) if len(per_day) else 0
    if top * days < 2**62:
        return per_day.astype(np.int64) * np.int64(days)
    return per_day.astype(object) * days


def _criminal_section(sections: str, plain: str) -> str:
    """§ 208-29A for one tree: "(violation of §208-18x)" when it broke § 208-18, else the provisions broken."""
    if not sections:
        return ""
    b18 = [x for x in sections.split("; ") if x.startswith("§208-18")]
    return f"§208-29A (violation of {'; '.join(b18)})" if b18 else f"{plain} ({sections})"


def replacement_scope(trees: pd.DataFrame, catalogue: pd.DataFrame, *, violation: bool) -> tuple[np.ndarray, list[str]]:
    """Trees § 208-22 may count (harmed, not excluded by E) and the reason each harmed tree is not.

    Kept for callers of the old scope: :func:`replacement_parts` decides the parts.
    """
    act = actions(trees)
    scope = _isin(act, HARMED) if violation else _isin(act, REMOVALS)
    invasive, forestry, part575 = _exclusions(trees, catalogue)
    harmed = _isin(act, HARMED)
    exclusion = np.where(
        harmed & invasive,
        "invasive (6 NYCRR 575 " + part575 + ") §208-22E",
        np.where(
            harmed & forestry,
            "good forestry §208-22E",
            np.where(harmed & ~scope, "damaged, not removed: counted only after a violation §208-22A/F", ""),
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


DEAD_EXCLUSION = "dead tree: no leaf area, no environmental value §208-22B; not counted §208-22A/F"


@dataclass
class ReplacementParts:
    """§ 208-22: the trees counted in each part, and why each harmed tree is not counted."""

    violation_part: np.ndarray  # § 208-22F: trees harmed in offences (or all harmed, violation given)
    permit_part: np.ndarray  # § 208-22A: proposed removals under a permit for three or more trees
    exclusion: np.ndarray  # per tree: why a harmed tree is not counted
    removals_under_permit: int
    violation: bool


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
    invasive, forestry, part575 = _exclusions(trees, catalogue)
    # a dead tree has no environmental value (§208-22B): not counted, though its removal still counts for
    # §208-19A(1), clear cutting and the number of trees a permit is issued for (§208-22A)
    dead = trees["dead"].fillna(False).to_numpy(bool) if "dead" in trees else np.zeros(len(trees), dtype=bool)
    excluded = invasive | forestry | dead
    done = _isin(act, DONE)
    village = pr.village if pr.village is not None else np.zeros(len(trees), dtype=bool)
    own_permit = _tree_yes(trees, "permit")
    if violation is None:
        f_scope = off.offence.copy()
    elif violation:  # the Engineer's finding: every tree harmed, but the Village's work and a tree's own permit
        f_scope = done & ~village & ~own_permit
    else:
        f_scope = np.zeros(len(trees), dtype=bool)
    a_cand = _isin(act, ("remove",) if violation is not False else REMOVALS) & pr.permit_needed & ~f_scope
    under_permit = int(a_cand.sum())
    a_scope = a_cand if under_permit >= law["replacement"]["min_trees"] else np.zeros(len(trees), dtype=bool)
    harmed = _isin(act, HARMED)
    rest = harmed & ~excluded & ~f_scope & ~a_scope
    removal = _isin(act, REMOVALS)
    removed_own = (act == "removed") & own_permit
    invasive_harmed = harmed & invasive & ~village & ~dead
    why = _pick(
        [
            harmed & village,
            harmed & dead,
            invasive_harmed,
            harmed & forestry,
            rest & a_cand,
            rest & removed_own,
            rest & removal,
            rest,
        ],
        [
            "work by or for the Village: no permit, nothing to replace §208-19B(1)",
            DEAD_EXCLUSION,
            "",  # the invasive trees' reasons, per tree, below
            "good forestry §208-22E",
            f"permit for {under_permit} tree(s): replacement only for {law['replacement']['min_trees']} or more "
            f"§208-22A",
            "removed under its own permit: no offence, nothing to replace here §208-22A",
            "no permit needed for this tree §208-19A",
            "harmed, no offence: nothing to replace §208-22F",
        ],
    )
    if invasive_harmed.any():
        why[invasive_harmed] = _map_unique(part575[invasive_harmed], lambda p: f"invasive (6 NYCRR 575 {p}) §208-22E")
    return ReplacementParts(
        f_scope & ~excluded, a_scope & ~excluded, why.astype(object), under_permit, bool(f_scope.any())
    )


# ------------------------------------------------------------------------------------------
# the assessment under Chapter 208: findings and statement lines
# ------------------------------------------------------------------------------------------
NOTE_29F = (
    "§208-29F: no building permit, temporary certificate of occupancy or certificate of occupancy is "
    "issued for the property while a violation of Chapter 208 served is open"
)
PENDING_LITERAL_NOTE = (
    "§208-29B(7) 'if any tree is ... removed ... while an application is pending' is read as an aggravation "
    "of an offence besides the harm itself, so one tree harmed while pending is not doubled by itself (see "
    "Readings). Read to the letter, it doubles that tree's own fine too: civil maximum ${usd:,} (definite "
    "offences); not applied"
)
NOTE_MULTISTEM = (
    "multi-stem trees: the legal DBH thresholds are applied to √Σd² of the stems (the TREE "
    "definition says 'in combination' without a method; the reading treecalc applies)"
)
NOTE_STREET_APPROVAL = (
    "§208-14, §208-5D: removing a street/public tree needs the Department's written approval besides any permit"
)
NOTE_21F = (
    "§208-21F: for removing, pruning or topping a tree over {dbh:g} in DBH or a landmark tree, the approving "
    "authority may require, as a condition of the permit, that a licensed professional tree care company do the work"
)
NOTE_20C = (
    "§208-20C: trees of {dbh:g} in DBH or more in the areas to be disturbed are individually identified and marked"
)
NOTE_22G = (
    "§208-22G: the owner warrants the replacements for three years; replacements that die are replanted "
    "in the next growing season"
)
NOTE_18E = "§208-18E: a prohibited invasive species (6 NYCRR Part 575) may never be installed or planted"


def assess(ctx: Context) -> Findings:
    """Chapter 208 on a valued survey (``ctx``: :class:`treecalc.assessment.Context`) -> Assessment parts.

    Returns the :class:`treecalc.results.Findings` ``(permit, replacement, fund, penalties, lines, site)``.
    """
    from treecalc import data

    opts = ctx.opts
    site_in = dict(ctx.site_in)
    if opts.violation is not None:  # --violation decides it; a site fact "violation" otherwise
        site_in["violation"] = bool(opts.violation)
    site, site_assumptions = resolve_site(site_in, SITE_DEFAULTS)
    assumed = frozenset(k for k in SITE_DEFAULTS if _not_given(site_in.get(k)))
    ctx.assumptions.extend(site_assumptions)
    trees = ctx.trees
    law = ctx.law
    source = getattr(ctx.survey, "source", None)
    not_surveyed = frozenset(source.get("flags_not_surveyed") or ()) if isinstance(source, dict) else frozenset()
    _tree_fact_assumptions(ctx.assumptions, trees, site_in)
    pr = permit(trees, site, law, clear_cutting=opts.clear_cutting, assumed=assumed, not_surveyed=not_surveyed)
    set_text(trees, "permit_triggers", pr.trigger_text)
    trees["permit_needed"] = pr.permit_needed
    off = offences(trees, site, law, pr)
    pen = penalties(
        trees,
        site,
        law,
        pr,
        off,
        application_pending=bool(site.get("application_pending")),
        continuing_days=opts.continuing_days,
    )
    _tree_columns(trees, off, pen)
    if off.conditional.any():
        facts = "; ".join(sorted(set(off.depends_on[off.conditional])))
        ctx.assumptions.append(
            f"{int(off.conditional.sum())} offence(s) rest on facts not given ({facts}): conditional, their "
            "penalties summed apart"
        )
    parts = replacement_parts(trees, data.catalogue(), law, pr, off, violation=site.get("violation"))
    penalties_f = _penalty_findings(trees, site, law, pr, off, pen)
    replacement, fund = _replacement_findings(ctx, trees, law, pr, parts)
    permit_f = _permit_findings(trees, pr)
    lines = _lines(ctx, trees, law, permit_f, off, pen, replacement, fund)
    return Findings(permit_f, replacement, fund, penalties_f, lines, site)


def _tree_fact_assumptions(assumptions: list[str], trees: pd.DataFrame, site_in: dict[str, Any]) -> None:
    """A per-tree column says what the site fact would: the site fact's assumption is then said of the trees
    whose cell is blank (not given), or not at all when every tree harmed has its cell given."""
    harmed = _isin(actions(trees), HARMED)
    for fact, col in (("permit_held", "permit"), ("village_work", "village_work")):
        if col not in trees or not _not_given(site_in.get(fact)):
            continue
        said = SITE_DEFAULTS[fact][1]
        col_blank = _map_unique(trees[col].astype(object).to_numpy(object), lambda v: "y" if _blank(v) else "")
        blank = int((harmed & (col_blank == "y")).sum())
        i = assumptions.index(said) if said in assumptions else len(assumptions)
        if said in assumptions:
            assumptions.remove(said)
        if blank:
            assumptions.insert(i, f"{blank} tree(s) harmed with a blank {col} cell: {said}")


def _blank(v: Any) -> bool:
    """A cell that says nothing: None, NA, NaN or spaces."""
    return v is None or v is pd.NA or _not_given(v)


def _not_given(v: Any) -> bool:
    return v is None or (isinstance(v, float) and np.isnan(v)) or (isinstance(v, str) and not v.strip())


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


def _int_column(values: np.ndarray) -> np.ndarray:
    """Integer dollars: int64 already, or Python ints when a day count makes them too large (never wraps)."""
    return values


def _plain_records(df: pd.DataFrame) -> Any:
    """Rows as dicts of plain Python values (ints, floats, str), made when read (:class:`Records`)."""
    from treecalc.results import Records

    return Records({c: df[c].to_numpy(object) for c in df.columns})


def _permit_findings(trees: pd.DataFrame, pr: PermitResult) -> Permit:
    notes = []
    street_prop = _street_proposed(trees, pr)
    if street_prop.any():
        notes.append(NOTE_STREET_APPROVAL + f" ({int(street_prop.sum())} street tree(s) proposed)")
    te_open = int((pr.permit_needed & (pr.depends_on == TE_NOT_GIVEN)).sum()) if pr.depends_on is not None else 0
    if te_open:
        notes.append(
            f"§208-19A(5) applied to {te_open} DEC protected native plant(s) whose threatened or endangered status "
            "is not given: the permit preview keeps the reading that needs a permit; penalties on it are conditional"
        )
    if pr.assumed_facts and pr.required:
        notes.append(
            "§208-19A(2) applied on parcel facts not given (" + ", ".join(pr.assumed_facts) + "): the "
            "permit preview keeps the reading that needs a permit; penalties on it are conditional"
        )
    return Permit(
        required=pr.required,
        triggers=pr.site_triggers,
        exceptions_applied=pr.exceptions_applied,
        trees_needing_permit=int(pr.permit_needed.sum()),
        approving_authority="Village Engineer, or the Planning Board where a site plan, subdivision, "
        "wetlands or steep slopes application is pending (§208-19C)",
        removals_12mo=pr.removals_12mo,
        clear_cutting=pr.clear_cutting,
        notes=notes,
    )


def _street_proposed(trees: pd.DataFrame, result: Any) -> np.ndarray:
    """Street trees proposed for removal by someone other than the Village (§208-5D binds only them)."""
    village = getattr(result, "village", None)
    mine = ~village if village is not None else np.ones(len(trees), dtype=bool)
    return flag(trees, "street_tree") & (_acts(trees, result) == "remove") & mine


def _penalty_findings(
    trees: pd.DataFrame,
    site: dict[str, Any],
    law: dict[str, Any],
    pr: PermitResult,
    off: OffenceResult,
    pen: PenaltyResult,
) -> Any:
    from treecalc.results import Penalties

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
    notes = [
        "maxima: 'up to' — the Planning Board assesses the civil penalty after a hearing (§208-29B) and "
        "may release or compromise it; the court sets a criminal fine (§208-29A)",
        "each day of a continuing violation is a separate offence (§208-29A, §208-29B)",
        "penalties collected are deposited in the Tree Fund (§208-29H)",
        OFFENCE_READING_208,
        OTHER_PROHIBITIONS_208,
        "definite offences rest only on facts given (survey columns, the Site sheet, flags); a conditional "
        "offence rests on an assumed fact, named per tree, and its amount is summed apart "
        "(civil_penalty_conditional_usd); the maxima count definite offences only",
        f"§208-29A 'second and each subsequent violation within a one-year period' is read from the site fact "
        f"prior_violation_within_year (when given yes: up to ${int(crim['repeat_within_year_usd']):,} per tree). Other "
        f"reading: every tree after the first of this event is a subsequent violation: "
        f"${pen.criminal_alternative:,} (definite offences)",
    ]
    if off.definite.any():
        notes.append(NOTE_29F)
    elif off.offence.any():
        notes.append(NOTE_29F + ", once a conditional offence is established")
    if pen.civil_pending_literal is not None:
        notes.append(PENDING_LITERAL_NOTE.format(usd=pen.civil_pending_literal))
    if pen.civil_conditional and pen.doubled_if_assumed and not pen.doubled:
        notes.append(
            "the conditional offences would also double the fines per tree (§208-29B(7)): "
            + "; ".join(pen.conditional_reasons)
        )
    return Penalties(
        civil_penalty_max_usd=pen.civil_total,
        civil_penalty_conditional_usd=pen.civil_conditional,
        criminal_fine_max_usd=pen.criminal_total,
        criminal_fine_conditional_usd=pen.criminal_conditional,
        fine_max_usd=None,  # Chapter 95's: §208-29 has civil penalties and criminal fines instead
        fine_conditional_usd=None,
        doubled=pen.doubled,
        doubling_reasons=pen.doubling_reasons,
        continuing_days=pen.days,
        offences=int(off.offence.sum()),
        offences_definite=int(off.definite.sum()),
        offences_conditional=int(off.conditional.sum()),
        per_tree=per_tree,
        not_offences=not_off,
        criminal_sections=["§208-29A"] + [s for s in crim_secs if s != "§208-29A"],
        criminal_alternative_usd=pen.criminal_alternative,
        clear_cutting=pr.clear_cutting,
        notes=notes,
        sections=["§208-29A", "§208-29B", "§208-29F", "§208-29H"],
    )


def required_value(value_usd: Decimal | float, percent: float) -> Decimal:
    """ "At least" ``percent`` of a value, rounded UP to the cent (§ 208-22A/F): 10.044 -> 10.05."""
    return percent_of_up(value_usd if isinstance(value_usd, Decimal) else Decimal(str(value_usd)), percent)


def _parts(ctx: Context, trees: pd.DataFrame, law: dict[str, Any], parts: ReplacementParts) -> list[Any]:
    from treecalc.results import ReplacementPart

    rules = law["replacement"]
    pct_f = (
        float(ctx.opts.replacement_percent)
        if ctx.opts.replacement_percent is not None
        else float(rules["violation_percent"])
    )
    out = []
    tags = trees["tag"].to_numpy(object)
    for section, pct, mask, reason in (
        (
            "§208-22F",
            pct_f,
            parts.violation_part,
            "the Village Engineer's percentage §208-22F"
            if ctx.opts.replacement_percent is not None
            else f"{rules['violation_percent']}% of the value of the trees harmed in offences §208-22F",
        ),
        (
            "§208-22A",
            float(rules["percent"]),
            parts.permit_part,
            f"{rules['percent']}% of the value of the trees proposed for removal under a permit for "
            f"{parts.removals_under_permit} trees ({rules['min_trees']} or more) §208-22A",
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


def _replacement_findings(
    ctx: Context, trees: pd.DataFrame, law: dict[str, Any], pr: PermitResult, parts: ReplacementParts
) -> tuple[Any, Any]:
    from treecalc.results import Replacement

    rules = law["replacement"]
    opts = ctx.opts
    counted = parts.violation_part | parts.permit_part
    trees["counted"] = counted
    set_text(trees, "exclusion", parts.exclusion)
    part_list = _parts(ctx, trees, law, parts)
    required = bool(part_list)
    # summed in exact cents (the parts' floats lose the cents of a very large value)
    required_cents = sum(int(p.required_value_cents or 0) for p in part_list)
    removed_cents = sum(int(p.value_cents or 0) for p in part_list)
    required_usd = float(Decimal(required_cents) / 100)
    removed_usd = float(Decimal(removed_cents) / 100)
    if opts.replacement_percent is not None and not parts.violation_part.any():
        ctx.warnings.append(
            "a replacement percentage was given but applies only after a violation (§208-22F): "
            f"{rules['percent']}% (§208-22A) is used"
        )
    section = "; ".join(p.section for p in part_list) or ("§208-22F" if parts.violation else "§208-22A")
    percent = part_list[0].percent if len(part_list) == 1 else None
    pct_note = "; ".join(f"{p.section}: {p.reason}" for p in part_list) or "nothing to replace"
    plan_out = plan_replacement(ctx, law, required_usd if required else 0.0, required)
    fund = _fund_findings(ctx, trees, parts, plan_out, required, part_list)
    pl, rep_warnings, rep_notes = plan_out["plan"], plan_out["warnings"], plan_out["notes"]
    if parts.violation_part.any() and required:
        rep_notes.append(
            "§208-22F: the applicant may instead pay the Tree Preservation Fund a sum equivalent to "
            f"{part_list[0].percent:g}% of the value destroyed, or combine planting and payment"
        )
    rep_notes.append(
        f"§208-22: {_pct(law['replacement']['violation_percent'])} (or the Engineer's percentage) only on the "
        f"trees harmed in offences, {_pct(law['replacement']['percent'])} on the removals proposed under a permit "
        f"for {_words(law['replacement']['min_trees'])} or more trees; a lawful removal that needs no "
        "permit, or a tree only damaged without an offence, carries nothing"
    )
    rep_notes.append(NOTE_22G)
    ctx.warnings.extend(rep_warnings)
    ex = parts.exclusion != ""
    excluded = _plain_records(
        pd.DataFrame(
            {
                "tag": trees["tag"].to_numpy(object)[ex],
                "species_code": trees["species_code"].to_numpy(object)[ex],
                "reason": parts.exclusion[ex],
            },
            dtype=object,
        )
    )
    replacement = Replacement(
        required=required,
        percent=percent,
        section=section,
        value_basis=ctx.options["value_basis"],
        value_basis_label=ctx.options["value_basis_label"],
        removed_value_usd=removed_usd,
        required_value_usd=required_usd if required else 0.0,
        removed_value_cents=removed_cents,
        required_value_cents=required_cents if required else 0,
        parts=part_list,
        percent_note=pct_note,
        violation=parts.violation,
        trees_counted=int(counted.sum()),
        removals_under_permit=parts.removals_under_permit,
        min_trees=rules["min_trees"],
        excluded=excluded,
        stock=plan_out["stock"],
        plan=plan_out["rows"],
        trees_needed=plan_out["trees_needed"] if required else 0,
        trees_planted=plan_out["planted"],
        trees_in_lieu=int(pl.trees_in_lieu) if required else 0,
        planted_value_usd=round2(pl.planted_value_usd),
        unmet_value_usd=round2(pl.unmet_value_usd),
        planting_cost_usd=round2(pl.planting_cost_usd),
        native_share=plan_out["native_share"],
        native_planted=plan_out["native_planted"],
        policy=pl.policy,
        status=pl.status,
        warnings=rep_warnings,
        notes=rep_notes,
    )
    return replacement, fund


def _stock_entries(opts: Any, rules: dict[str, Any]) -> tuple[list[dict[str, Any]], list[str]]:
    """The replacement stock offered (§ 208-22C/D), with what was assumed for what was not given."""
    from treecalc import data
    from treecalc.units import money

    assumptions: list[str] = []
    if opts.replacement_stock:
        entries = [dict(e) for e in opts.replacement_stock]
        for e in entries:
            if e.get("unit_cost_usd") is None:
                e["unit_cost_usd"] = rules["default_stock"]["unit_cost_usd"]
                assumptions.append(
                    f"replacement {e.get('species')}: unit cost not given, the placeholder "
                    f"${money(e['unit_cost_usd']):,.2f} is used"
                )
        return entries, assumptions
    d = rules["default_stock"]
    species = opts.replacement_species or d["species"]
    if opts.replacement_species is None:
        assumptions.append(f"replacement species not given: {d['species']} (red maple, native) is assumed (§208-22C)")
    dbh_in = opts.replacement_dbh_in
    if dbh_in is None and opts.replacement_species is None:
        dbh_in = d["dbh_in"]
        assumptions.append(
            f"replacement size not given: {d['dbh_in']:g} in DBH is assumed (§208-22D minimum "
            f"{rules['deciduous_min_dbh_in']:g} in)"
        )
    elif dbh_in is None:
        from treecalc.species import resolve_one

        code = resolve_one(str(species)).code
        if code and data.catalogue().loc[code, "leaf_type"] != "conifer":
            dbh_in = d["dbh_in"]
            assumptions.append(f"replacement size not given: {d['dbh_in']:g} in DBH is assumed")
    cost = opts.replacement_cost_usd
    if cost is None:
        cost = d["unit_cost_usd"]
        assumptions.append(
            f"replacement unit cost not given: ${money(cost):,.2f} per tree supplied and "
            f"planted is a PLACEHOLDER (give --replacement-cost)"
        )
    return [
        {"species": species, "dbh_in": dbh_in, "height_ft": opts.replacement_height_ft, "unit_cost_usd": cost}
    ], assumptions


def _stock_hint(stock_report: list[dict[str, Any]], rules: dict[str, Any]) -> str:
    """What to change when every replacement stock was refused: the size (§208-22D) when that was
    the reason, another species otherwise."""
    reasons = [x for r in stock_report for x in r["refusals"]]
    if reasons and all("minimum for deciduous" in x for x in reasons):
        return f"give a replacement DBH of at least {rules['deciduous_min_dbh_in']:g} in (§208-22D)"
    if reasons and all("conifer" in x for x in reasons):
        return f"give a conifer replacement height of at least {rules['conifer_min_height_ft']:g} ft (§208-22D)"
    return "give another replacement species"


def plan_replacement(ctx: Context, law: dict[str, Any], required_usd: float, required: bool) -> dict[str, Any]:
    """§ 208-22C/D: the stock offered, the cheapest planting plan meeting the value, what goes in lieu."""
    from treecalc.planting import plan as make_plan
    from treecalc.planting import prepare_stock

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
    # §208-22C "predominantly" native: read as more than a share of the trees planted (data/readings/)
    if planted and native_planted <= law["replacement"]["predominantly_native_share"] * planted:
        warnings.append(
            f"native species are not the majority of the replacements ({native_planted} of {planted}): "
            "replacement trees should predominantly be native (§208-22C)"
        )
    limited = opts.plantable is not None or opts.plantable_area_sqft is not None
    if required and not limited:
        notes.append("no limit on plantable trees given: every needed tree is planted")
    if required and limited and pl.trees_in_lieu:
        notes.append(f"the site can take {planted} tree(s): the rest goes to the Tree Preservation Fund (§208-22D)")
    if opts.plantable_area_sqft is not None:
        notes.append(
            "plantable area divided by the §208-6A spacing of each tree's size class "
            f"(small {law['spacing_ft']['small']} ft, medium {law['spacing_ft']['medium']} ft, "
            f"large {law['spacing_ft']['large']} ft apart; spacing² per tree)"
        )
    if options_ok and required:
        from treecalc import data

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
        notes.append(NOTE_18E)
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


def _fund_findings(
    ctx: Context,
    trees: pd.DataFrame,
    parts: ReplacementParts,
    plan_out: dict[str, Any],
    required: bool,
    part_list: list[Any],
) -> Any:
    """§ 208-22D/F, § 208-24: the payment in lieu, on the fee schedule's capital basis when it is "value"."""
    from treecalc.results import Fund
    from treecalc.rules.croton_fund import in_lieu

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
    alt, alt_how, alt_exact = None, "", None
    f_part = next((p for p in part_list if p.section == "§208-22F"), None)
    if f_part is not None:
        values = ctx.capital_value_of(trees, parts.violation_part, schedule.value_basis)
        base = cents_sum(values, np.ones(len(values), dtype=bool))
        alt_exact = required_value(base, f_part.percent)
        alt = float(alt_exact)
        alt_how = (
            f"{f_part.percent:g}% of ${base:,.2f}, the value of the {f_part.trees} tree(s) harmed in "
            f"offences on the capital basis {schedule.value_basis} (§208-22F, §208-24), rounded up to the cent"
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


def _site_notes(trees: pd.DataFrame, law: dict[str, Any], off: OffenceResult | None = None) -> list[str]:
    """Notes every output carries when they apply (§208-21F, §208-20C, multi-stem DBH). The first two are
    conditions of a permit: the Village's own work (§208-19B(1)) needs none."""
    act = _acts(trees, off)
    d = dbh(trees)
    village = getattr(off, "village", None)
    work = (act != "retain") & (~village if village is not None else True)
    big, marked = law["conditions"]["licensed_company_over_dbh_in"], law["conditions"]["individually_marked_min_dbh_in"]
    # the comparisons as the law states them ("in excess of", "and greater"): the entries' operators
    op21f = entry("croton_on_hudson", "conditions.licensed_company_over_dbh_in").operator or ">"
    op20c = entry("croton_on_hudson", "conditions.individually_marked_min_dbh_in").operator or ">="
    notes = []
    if (work & (compare(op21f, d, big) | flag(trees, "landmark"))).any():
        notes.append(NOTE_21F.format(dbh=big))
    if (work & (act == "remove") & compare(op20c, d, marked)).any():
        notes.append(NOTE_20C.format(dbh=marked))
    if "stems" in trees and (pd.to_numeric(trees["stems"], errors="coerce").fillna(1) > 1).any():
        notes.append(NOTE_MULTISTEM)
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
    from treecalc.results import line as L_

    L = list(ctx.survey_lines)
    unit = ctx.options["value_unit"]
    L.append(L_("§208-22B", "Value basis", ctx.options["value_basis_label"], "", "every value below is on this basis"))
    items = ("Permit trigger", "Exception", "Tree removal permit required")
    L += permit.statement_lines("§208-19", items, f"{permit.trees_needing_permit} tree(s) need a permit")
    if _street_proposed(trees, off).any():
        L.append(L_("§208-14; §208-5D", "Department's written approval", "required", "", NOTE_STREET_APPROVAL))
    L.append(
        L_(
            "§208-22",
            "Trees counted toward replacement",
            int(rep.trees_counted),
            "trees",
            f"{_pct(law['replacement']['violation_percent'])} on trees harmed in offences (§208-22F), "
            f"{_pct(law['replacement']['percent'])} on removals proposed under a permit for "
            f"{law['replacement']['min_trees']} or more trees (§208-22A)",
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
    L.append(L_("§208-22B", "Value of the trees removed", rep.removed_value_usd, unit))
    L.append(L_(rep.section, "Replacement required", "yes" if rep.required else "no", "", rep.percent_note))
    if rep.required:
        _lines_replacement(L, rep, fund, unit)
    L.append(L_("§208-23C", "Forfeited bonds", "to the Tree Preservation Fund"))
    _lines_penalties(L, trees, off, pen, ctx)
    return L


def _lines_replacement(L: list[dict[str, Any]], rep: Any, fund: Any, unit: str) -> None:
    from treecalc.results import line as L_

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
                "§208-22D",
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
                "§208-22D",
                f"Plant {p['species_code']} {p['dbh_in']:g} in",
                p["count"],
                "trees",
                f"{p['count']} x {p['value_per_tree_usd']:,.2f} = {p['planted_value_usd']:,.2f} {unit}; "
                f"cost ${p['cost_usd']:,.2f}",
            )
        )
    L.append(L_(rep.section, "Replacement trees needed", rep.trees_needed, "trees"))
    L.append(L_("§208-22D", "Trees planted", rep.trees_planted, "trees"))
    L.append(L_("§208-22D", "Trees not planted (in lieu)", rep.trees_in_lieu, "trees"))
    L.append(L_("§208-22D", "Planting cost", rep.planting_cost_usd, "USD"))
    if rep.native_share is not None:
        L.append(
            L_(
                "§208-22C",
                "Native share of the replacements",
                round(rep.native_share * 100, 1),
                "%",
                f"{rep.native_planted} of {rep.trees_planted}",
            )
        )
    # a schedule given directly (the app's Fund page) is known by the words it was set with ("set by Board
    # resolution ..."), the same in the app, the statement and the PDF; a file by its path
    named = fund.placeholder or (fund.source.startswith("given as a dict") and fund.label != "fee schedule")
    L.append(L_("§208-24C", "Basis of payment in lieu", fund.basis, "", fund.label if named else fund.source))
    L.append(
        L_("§208-24", "Payment in lieu to the Tree Preservation Fund", fund.fund_in_lieu_usd, "USD", fund.calculation)
    )
    if fund.alternative_22f_usd is not None:
        L.append(
            L_(
                "§208-22F",
                "Or: payment in place of the §208-22F replacement",
                fund.alternative_22f_usd,
                "USD",
                fund.alternative_22f_calculation,
            )
        )
    L.append(L_("§208-22G", "Warranty of the replacements", "three years", "", NOTE_22G))


def _lines_penalties(
    L: list[dict[str, Any]], trees: pd.DataFrame, off: OffenceResult, pen: PenaltyResult, ctx: Context
) -> None:
    from treecalc.results import line as L_

    L.append(
        L_(
            "§208-29",
            "Offences, definite (facts given)",
            int(off.definite.sum()),
            "trees",
            "a–d: removal needing a permit (§208-19A, §208-18A/C), topping or excessive pruning (§208-18D), "
            "street tree without the Department's approval (§208-5C/D, §208-14), harm while an application "
            "was pending (§208-20F)",
        )
    )
    L.append(
        L_(
            "§208-29",
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
            L_("§208-29", "Damaged, not an offence by itself", e, "trees", "listed for the Village Engineer, no amount")
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
    for r in pen.doubling_reasons:
        L.append(L_("§208-29B(7)", "Fines per tree doubled", r.replace(" §208-29B(7)", "")))
    if pen.days > 1:
        L.append(L_("§208-29B", "Days of continuing violation", pen.days, "days", "each day a separate offence"))
    L.append(L_("§208-29B", "Civil penalty, maximum", pen.civil_total, "USD", "up to; definite offences only"))
    L.append(
        L_(
            "§208-29B",
            "Civil penalty, conditional offences",
            pen.civil_conditional,
            "USD",
            "up to, only if the assumed facts hold; not in the maximum",
        )
    )
    secs = sorted(set(pen.criminal_section[off.definite]))
    L.append(
        L_(
            "§208-29A",
            "Criminal fine, maximum",
            pen.criminal_total,
            "USD",
            "up to; definite offences only; " + ("; ".join(secs) if secs else "no offence"),
        )
    )
    L.append(
        L_(
            "§208-29A",
            "Criminal fine, conditional offences",
            pen.criminal_conditional,
            "USD",
            "up to, only if the assumed facts hold",
        )
    )
    if pen.civil_pending_literal is not None:
        L.append(
            L_(
                "§208-29B(7)",
                "Civil penalty, other reading of 'harmed while an application is pending'",
                pen.civil_pending_literal,
                "USD",
                "the one tree harmed while pending doubles its own fine (text read to the letter); not applied",
            )
        )
    L.append(
        L_(
            "§208-29A",
            "Criminal fine, other reading of 'subsequent violation'",
            pen.criminal_alternative,
            "USD",
            "every tree after the first of this event at the repeat maximum",
        )
    )
    if off.offence.any():  # a conditional offence holds nothing until its facts are established
        L.append(
            L_(
                "§208-29F",
                "Building permit / certificate of occupancy",
                "withheld while the violation is open"
                if off.definite.any()
                else "withheld only if a conditional offence is established",
                "",
                NOTE_29F,
            )
        )
    L.append(L_("§208-29H", "Penalties collected", "to the Tree Fund"))
    for n in _site_notes(trees, ctx.law, off):
        L.append(L_(n.split(":")[0] if n.startswith("§") else "§208-17", "Note", n))


# ---------------------------------------------------------------- what the assessment reads of this chapter
#: How Chapter 208 reads a dead tree (README "Readings").
DEAD_TREE_READING = (
    "§208-22A/B 'environmental value' (i-Tree / National Tree Benefit Calculator): a dead tree (condition dead, "
    "or a census status 'Dead') has no leaf area, so its annual benefits, its value on every basis and its CTLA "
    "appraisal (condition 0%) are 0, and it is not counted toward the §208-22A or §208-22F replacement. Its "
    "removal still counts as a tree removed for §208-19A(1) ('more than three trees'), for clear cutting "
    "(§208-17, §208-19A(8)) and among the trees a permit is issued for (§208-22A 'three or more trees'); "
    "§208-19D(5) makes it a standard for granting the permit, not an exception."
)

#: Readings of the assessment as a whole, stated after :data:`READING_ITEMS` (``method["readings"]``).
ASSESSMENT_READING_ITEMS = [
    ("§208-29", OFFENCE_READING_208),
    ("§208-18B", OTHER_PROHIBITIONS_208),
    ("§208-22B", DEAD_TREE_READING),
]


def fee_schedule(opts: Any, on: Any = None) -> Any:
    """The fee schedule of payments in lieu (§208-24C) the options name (``fee_schedule``, ``fee_per_tree_usd``),
    the one in force on ``on`` (a date; None: the latest)."""
    from treecalc.rules.croton_fund import load_fee_schedule

    return load_fee_schedule(opts.fee_schedule, fee_per_tree_usd=opts.fee_per_tree_usd, on=on)
