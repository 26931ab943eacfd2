"""Chapter 208's readings of unclear text, the sections applied, and the notes the findings carry (the docs' law pages),
and the site facts it assumes when not given (each in the chapter's words, ``[site_why]``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from treecalc.ingest.site import site_defaults
from treecalc.law import access as _access
from treecalc.rules.croton_on_hudson.words import _pct, _tier_bounds, _usd, _words, _years


#: Site facts this module reads, with the reading assumed when a fact is not given.
#: The default is the *conservative* reading (the one under which the law protects
#: the trees), except where no such reading exists (counts of earlier events).
#: Why each site fact not given is assumed as it is, in this chapter's words (``[site_why]`` of
#: ``data/law/croton_on_hudson/ch208_trees.toml``, readings ``data/readings/croton_on_hudson.toml``); the assumed values themselves have one home,
#: :data:`treecalc.ingest.site.SITE_ASSUMED` (``data/readings/site_facts.toml``).
def site_why(law: dict[str, Any]) -> dict[str, str]:
    """Why each site fact not given is assumed, in the words of ``law`` (in force on the assessment's date)."""
    from treecalc.law import readings

    return _access.site_why(
        law, readings("croton_on_hudson")
    )  # the words a survey read before it is assessed states too


#: Survey flags only another chapter reads (Wesley Hills §95-3A(1)(e)): no assumption of this chapter names them.
OTHER_LAW_FLAGS = ("within_20ft_of_lot_line",)


#: Each reading of unclear text this chapter's assessment applies: (section, reading), stated on the docs' law pages
#: ("Readings"), the JSON (``readings``), the statement's Method sheet and the printable report.
def reading_items(law: dict[str, Any]) -> list[tuple[str, str]]:
    """Each reading of unclear text this chapter's assessment applies: (section, reading), its numbers those of
    ``law`` (the law in force on the assessment's date: an amended number is quoted from its date, the old one
    before it). Stated on the docs' law pages (generated from it), the JSON (``readings``), the statement's Method sheet and the
    printable report."""
    return _permit_readings(law) + _penalty_readings(law)


def _months(law: dict[str, Any]) -> str:
    """§208-19A(1)'s window, as an adjective ("12-month")."""
    return f"{law['permit']['window_months']:g}-month"


def _permit_readings(law: dict[str, Any]) -> list[tuple[str, str]]:
    """The readings of what needs a permit and what is an offence (§208-17 to §208-29A/B)."""
    pruned = _pct(law["conditions"]["excessive_pruning_min_percent"])  # §208-17 EXCESSIVE PRUNING
    more, n_more = _words(law["permit"]["more_than_trees_12mo"]), int(law["permit"]["more_than_trees_12mo"])
    clear = _words(law["permit"]["clear_cutting_min_trees"])
    return [
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
            "of the lot's counts of removals (§208-19A(1), clear cutting §208-17) or of the §208-29B(7) "
            f"{_access.multiplied(law['penalty']['doubling_factor'])['ing']}, "
            "carry no replacement (§208-22A needs a permit, §208-22F a violation) and hold no building permit "
            "(§208-29F). Under a site-wide exception that needs no permit (§208-19B(1), B(2), E) the removals are not"
            " clear cutting ('without the benefit of a ... permit'), unless the Village Engineer has determined it.",
        ),
        (
            "§208-19A(1), (8)",
            "§208-19A(1) and (8): a tree already removed is judged on the removals already done (with the lot's "
            "earlier ones); a proposed removal on all removals, proposed included. Both count removals only: a topped"
            f" or damaged tree still stands and is no part of 'more than {more} trees' removed or of clear cutting "
            f"('the removal of {clear} or more trees'). A tree already removed under its own permit is no part of the "
            f"count a removal already made is judged on (§208-18A: 'more than {more} ({n_more}) trees ... without first "
            f"obtaining a tree removal permit'): {_words(n_more + 1)} removed, one under its own permit, are {more} "
            "without one. The lot's earlier removals (prior_removals_12mo) count for a removal already made only as "
            "far as prior_removals_without_permit says they had no permit (at most prior_removals_12mo of them): "
            "that fact given (0 included), the others had a permit and count for nothing; not given, they count for "
            "the conditional figures, an offence resting on them conditional, naming that fact; a proposed removal "
            "needs a permit on all of them.",
        ),
        (
            "§208-17",
            f"§208-17 CLEAR CUTTING ('removal of {clear} or more trees from a property without ... a current and valid "
            f"tree removal permit') has no {_months(law)} window and counts only removals made without a permit: the "
            "survey's removals plus the site fact prior_removals_without_permit (default 0). Where the Village "
            "Engineer has determined clear cutting (‹clear_cutting›), that determination is applied as given.",
        ),
        (
            "§208-29A/B",
            "§208-29A/B reach anyone who 'otherwise violates any of the provisions of this chapter'. A harmed tree is"
            " an offence when, without authorisation: (a) it was removed and §208-19A required a permit (clear "
            f"cutting §208-18C, more than {more} §208-18A); (b) it was topped or excessively pruned — {pruned} or more of "
            "its leaf, stem or root area (§208-17) — whatever its size or place (§208-18D; street and public trees "
            "also §208-11); (c) it is a street/public tree pruned (any share, short of excessive pruning too: no "
            "§208-22F replacement then, and no §208-29B(7) count), removed or otherwise disturbed without the "
            "Department's written approval (§208-5C/D, §208-14; a pruning's approval not given at all makes its "
            "offence conditional); (d) it was harmed in any way while a permit "
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
    ]


def _penalty_readings(law: dict[str, Any]) -> list[tuple[str, str]]:
    """The readings of the penalties, the replacement and the rest (§208-29B on)."""
    _LAW = law
    _C, _R, _P = law["criminal"], law["replacement"], law["penalty"]
    times = _access.multiplied(_P["doubling_factor"])  # §208-29B(7)'s "doubled"
    return [
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
            f"§208-29B: each offence tree at the highest tier that applies ((1)-(6)); B(7) {times['es']} the fines per tree "
            f"when more than {_words(_P['doubling_more_than_trees'])} regulated trees were harmed without a permit (every tree of (a)-(d), not only "
            "removals; the trees of this survey's offences: the lot's earlier removals, not before the Board here, "
            "count through clear cutting only), when clear cutting took place, or when any tree was harmed while an application was pending "
            "(the harm that is itself the §208-20F offence is not counted again as its aggravation: the pending "
            f"clause {times['es']} when two or more trees were harmed while pending, or a tree harmed while pending broke "
            "another provision too). Days of a continuing violation multiply.",
        ),
        (
            "§208-29A",
            f"§208-29A: up to {_usd(_C['per_tree_usd'])} per offence tree; up to {_usd(_C['section_208_18_usd'])} for "
            "each violation of §208-18 (topping or excessive pruning §208-18D, more than "
            f"{_words(_LAW['permit']['more_than_trees_12mo'])} removals §208-18A, clear cutting §208-18C); up to "
            f"{_usd(_C['repeat_within_year_usd'])} per tree when"
            f" a prior violation within {_years(_C['repeat_window_years'])} is given (prior_violation_within_year). The other reading of 'second "
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
            f"violation. An earlier violation within {_years(_C['repeat_window_years'])} (prior_violation_within_year) whose trees are not in "
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
            "§208-22E",
            "§208-22E good forestry exempts from replacement: a cell neither yes nor no ('maybe', '?', 'unsure') is no "
            "determination given. The permit preview keeps a proposed removal's §208-22A replacement; the §208-22F "
            "replacement of a tree harmed in a violation rests on the exemption not applying and is conditional, "
            "shown apart, naming the cell.",
        ),
        (
            "§208-17 TREE",
            "Multi-stem trees: the legal DBH thresholds use √Σd² of the stems (the TREE definition says 'in "
            "combination' without a method), compared at the precision the stems were measured (the most decimals "
            "a stem is written with, in its unit): stems 6 and 5.3 in combine to 8.0056 in, 8.0 in at 0.1 in. "
            "Where the two figures fall on different sides of a bound, the permit preview keeps the one that needs "
            "a permit (§208-19A(2)-(4), (7) 'inches or more'), an offence resting on it is conditional, and a "
            f"§208-29B tier {_tier_bounds(law)} is the lower one in "
            "the maximum, the higher in the conditional figures only.",
        ),
        ("§208-18B", "§208-18B (attaching objects that injure a tree) is not assessed: the survey does not record it."),
    ]


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


#: Who sets a penalty up to the maxima the statement gives (the Violations page says it under them).
def penalty_setter(law: dict[str, Any]) -> str:
    """Who sets a penalty up to the maxima, and the term of imprisonment §208-29A allows, from ``law``."""
    crim = law["criminal"]
    return (
        "the Planning Board assesses the civil penalty after a hearing (§208-29B) and may release or compromise it; "
        "the court sets a criminal fine (§208-29A; for a subsequent violation within "
        f"{_years(crim['repeat_window_years'])} or a violation of §208-18, the fine or up to "
        f"{int(crim['imprisonment_max_days'])} days' imprisonment, or both)"
    )


OFFENCE_READING_208 = (
    "§208-29: a harmed tree is an offence when, without authorisation, it was removed where "
    "§208-19A required a permit, topped or excessively pruned (§208-18D), a street tree "
    "disturbed without the Department's approval (§208-5C/D, §208-14), or harmed while an "
    "application was pending (§208-20F); other damage is listed for the Engineer, no amount."
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
    "of an offence besides the harm itself, so one tree harmed while pending is not {ed} by itself (see "
    "Readings). Read to the letter, it {es} that tree's own fine too: civil maximum ${usd:,} (definite "
    "offences); not applied"
)


NOTE_MULTISTEM = (
    "multi-stem trees: the legal DBH thresholds are applied to √Σd² of the stems (the TREE "
    "definition says 'in combination' without a method; the reading treecalc applies), at the stems' precision; "
    "a bound met by only one of the two figures is met for the permit preview and conditional for penalties "
    "(§208-19A, §208-29B)"
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


#: §208-22G, a template: ``years`` the warranty in words, ``replant`` a replant's period (:func:`note_22g`)
NOTE_22G = (
    "§208-22G: the owner warrants the replacements for {years} years; replacements that die are replanted "
    "in the next growing season and warranted for {replant} from their own provisional acceptance"
)


def warranty_years(law: dict[str, Any]) -> str:
    """§208-22G's warranty as the ordinance says it ("three years" for "the third anniversary")."""
    return f"{_words(law['replacement']['warranty_years'])} years"


def note_22g(law: dict[str, Any]) -> str:
    """The §208-22G note, its warranty that of ``law`` (in force on the date)."""
    from treecalc.law.words import spelled_years

    rep = law["replacement"]
    return NOTE_22G.format(years=_words(rep["warranty_years"]), replant=spelled_years(rep["replant_warranty_years"]))


NOTE_18E = "§208-18E: a prohibited invasive species (6 NYCRR Part 575) may never be installed or planted"


def _blank(v: Any) -> bool:
    """A cell that says nothing: None, NA, NaN or spaces."""
    return v is None or v is pd.NA or _not_given(v)


def _not_given(v: Any) -> bool:
    return v is None or (isinstance(v, float) and np.isnan(v)) or (isinstance(v, str) and not v.strip())


# ---------------------------------------------------------------- what the assessment reads of this chapter
def dead_tree_reading(law: dict[str, Any]) -> str:
    """How Chapter 208 reads a dead tree (the docs' law pages), its counts those of ``law`` (in force on the date)."""
    more, least = _words(law["permit"]["more_than_trees_12mo"]), _words(law["replacement"]["min_trees"])
    return (
        "§208-22A/B 'environmental value' (i-Tree / National Tree Benefit Calculator): a dead tree (condition dead, "
        "or a census status 'Dead') has no leaf area, so its annual benefits, its value on every basis and its CTLA "
        "appraisal (condition 0%) are 0, and it is not counted toward the §208-22A or §208-22F replacement. Its "
        f"removal still counts as a tree removed for §208-19A(1) ('more than {more} trees'), for clear cutting "
        f"(§208-17, §208-19A(8)) and among the trees a permit is issued for (§208-22A '{least} or more trees'); "
        "§208-19D(5) makes it a standard for granting the permit, not an exception."
    )


#: How § 208-22F reads an offence that rests on a fact not given (the docs' law pages).
CONDITIONAL_22F_READING = (
    "§208-22F 'if an applicant has violated this chapter': its replacement standard is charged only on "
    "trees whose offence is definite (facts given). A tree whose offence rests on a fact not given (a conditional offence) "
    "carries no replacement: what §208-22F would require of it (trees, or the payment in their place) is shown "
    "apart, 'would be required if' the fact is established, never in 'Replacement required' or the totals."
)


#: Readings of the assessment as a whole, stated after :data:`READING_ITEMS` (``method["readings"]``).
def assessment_reading_items(law: dict[str, Any]) -> list[tuple[str, str]]:
    """Readings of the assessment as a whole under ``law`` (in force on the date), after :func:`reading_items`."""
    return [
        ("§208-29", OFFENCE_READING_208),
        ("§208-18B", OTHER_PROHIBITIONS_208),
        ("§208-22B", dead_tree_reading(law)),
        ("§208-22F, §208-29", CONDITIONAL_22F_READING),
    ]


#: The readings above filled from the latest law held, made each time they are asked for (module attributes, PEP
#: 562): importing this module reads no law, so a village's copy of the data folder that breaks the schema is refused
#: by the command that reads it (exit 2), and an amended folder is read as it is now.
_LAZY: dict[str, Any] = {
    "SITE_DEFAULTS": lambda law: site_defaults("croton_on_hudson", site_why(law)),
    "READING_ITEMS": reading_items,
    "READINGS": lambda law: [text for _, text in reading_items(law)],
    "PENALTY_SETTER": penalty_setter,
    "DEAD_TREE_READING": dead_tree_reading,
    "ASSESSMENT_READING_ITEMS": assessment_reading_items,
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return _LAZY[name](_access.law("croton_on_hudson"))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
