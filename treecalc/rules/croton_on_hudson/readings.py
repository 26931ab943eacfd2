"""Chapter 208's readings of unclear text, the sections applied, and the notes the findings carry (the docs' law pages),
and the site facts it assumes when not given (each in the chapter's words, ``[site_why]``).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
import pandas as pd

from treecalc.ingest.site import site_defaults
from treecalc.law import access as _access
from treecalc.law import readings
from treecalc.law.words import spelled_years
from treecalc.rules.croton_on_hudson.cite import cited, paragraph, provision, subsection, through, tier, whole
from treecalc.rules.croton_on_hudson.words import _pct, _tier_bounds, _usd, _words, _years


def _s() -> SimpleNamespace:
    """The sections these readings name, each from its entry or its record of the law file (never written here),
    and the runs of them the readings write ("§208-5C/D")."""
    e = {k: cited(k) for k in ("permit.more_than_trees_12mo", "permit.parcel_min_dbh_in")}
    n = SimpleNamespace(
        street_planting=provision("street_planting"),
        street_pruning=cited("conditions.street_tree_pruning_min_percent"),
        street_removal=provision("street_removal"),
        street_topping=provision("street_topping"),
        healthy_street_tree=provision("healthy_street_tree"),
        definitions=provision("definitions"),
        more_than_three_prohibited=provision("more_than_three_prohibited"),
        attachments=provision("attachments_prohibited"),
        clear_cutting_prohibited=provision("clear_cutting_prohibited"),
        topping=provision("topping_prohibited"),
        invasive_install=provision("invasive_install_prohibited"),
        more_than=e["permit.more_than_trees_12mo"],
        parcel=e["permit.parcel_min_dbh_in"],
        threatened=provision("threatened_endangered"),
        clear_cutting=provision("clear_cutting"),
        permit_required=subsection(e["permit.more_than_trees_12mo"]),
        village_work=provision("village_work"),
        exceptions=subsection(provision("village_work")),
        hazardous=provision("hazardous_tree"),
        dead=provision("dead_tree"),
        planning_board=provision("planning_board_approval"),
        pending=provision("pending_application"),
        marked=cited("conditions.individually_marked_min_dbh_in"),
        licensed=cited("conditions.licensed_company_over_dbh_in"),
        replacement_a=cited("replacement.percent"),
        valuation=provision("valuation_method"),
        in_lieu=provision("in_lieu"),
        good_forestry=provision("good_forestry"),
        replacement_f=cited("replacement.violation_percent"),
        warranty=cited("replacement.warranty_years"),
        replacement=whole(cited("replacement.percent")),
        spacing=subsection(cited("spacing_ft.small")),
        bond_forfeited=provision("bond_forfeited"),
        fund=provision("fund"),
        criminal=cited("criminal.per_tree_usd"),
        tier6=tier(6),
        doubling=cited("penalty.doubling_factor"),
        civil=cited("penalty.civil_tiers"),
        no_building_permit=provision("no_building_permit"),
        penalties_to_fund=provision("penalties_to_fund"),
        offences=whole(cited("criminal.per_tree_usd")),
        prohibitions=whole(provision("more_than_three_prohibited")),
    )
    n.street_cd = f"{n.street_pruning}/{paragraph(n.street_removal)}"
    n.street_bcd = f"{n.street_planting}/{paragraph(n.street_pruning)}/{paragraph(n.street_removal)}"
    n.more_than_and_cc = f"{n.more_than}, {n.clear_cutting[n.clear_cutting.rfind('(') :]}"
    buffer = cited("permit.buffer_min_dbh_in")
    n.sized_triggers = f"{through(n.parcel, cited('permit.wetland_min_dbh_in'))}, {buffer[buffer.rfind('(') :]}"
    n.replacement_all = f"{n.replacement_a}-{paragraph(n.warranty)}"
    n.valued = f"{n.replacement_a}/{paragraph(n.valuation)}"
    n.in_lieu_f = f"{n.in_lieu}/{paragraph(n.replacement_f)}"
    n.offence_penalties = f"{n.criminal}/{paragraph(n.civil)}"
    return n


#: Site facts this module reads, with the reading assumed when a fact is not given.
#: The default is the *conservative* reading (the one under which the law protects
#: the trees), except where no such reading exists (counts of earlier events).
#: Why each site fact not given is assumed as it is, in this chapter's words (``[site_why]`` of
#: ``data/law/croton_on_hudson/ch208_trees.toml``, readings ``data/readings/croton_on_hudson.toml``); the assumed values themselves have one home,
#: :data:`treecalc.ingest.site.SITE_ASSUMED` (``data/readings/site_facts.toml``).
def site_why(law: dict[str, Any]) -> dict[str, str]:
    """Why each site fact not given is assumed, in the words of ``law`` (in force on the assessment's date)."""
    return _access.site_why(
        law, readings("croton_on_hudson")
    )  # the words a survey read before it is assessed states too


#: Survey flags only another chapter reads (Wesley Hills' lot-line trigger): no assumption of this chapter names them.
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
    s = _s()
    pruned = _pct(law["conditions"]["excessive_pruning_min_percent"])  # the definition of EXCESSIVE PRUNING
    more, n_more = _words(law["permit"]["more_than_trees_12mo"]), int(law["permit"]["more_than_trees_12mo"])
    clear = _words(law["permit"]["clear_cutting_min_trees"])
    return [
        (
            f"{s.definitions}",
            f"{s.definitions} REGULATED BUFFER ZONE: the widths per zoning district were lost in the text received; treecalc "
            "reads the survey's regulated_buffer_zone flag as given.",
        ),
        (
            f"{s.threatened}",
            f"{s.threatened} 'any threatened or endangered species of tree ... as defined by the New York State "
            "Department of Environmental Conservation' is read from the survey flag threatened_endangered (headers "
            "'Threatened or endangered', 'T&E', 'Endangered'). A DEC protected native plant (protected_native: 'DEC "
            "protected native plant', 'Protected native', 'Exploitably vulnerable') is no trigger: a wider list "
            "(endangered, threatened, rare and exploitably vulnerable plants, ECL 9-1503). A protected native removed"
            " with no other trigger is no offence; when its threatened or endangered status is not given (no column, "
            "a blank cell) the offence is conditional on that status.",
        ),
        (
            f"{s.exceptions}",
            f"{s.exceptions}: the exceptions of Intro. 4 of 2025 are Village work (B(1)) and right-of-way, fire and "
            f"emergency removals (B(2)), with Planning Board approvals deemed permits ({s.planning_board}); dead, diseased and "
            f"hazardous trees are standards for granting a permit ({s.hazardous}, (5)), not exceptions.",
        ),
        (
            f"{s.village_work}",
            f"{s.village_work} ('no tree removal permit shall be required for work done by or on behalf of the Village'), "
            f"{s.street_bcd} and {s.street_topping} (which bind persons 'other than the Village of Croton-on-Hudson or its "
            "designated agents'): with village_work given yes (a site fact, or a tree's own cell: 'Village work', 'By"
            " Village', 'Village ROW work') none of those trees is an offence under any provision, they are no part "
            f"of the lot's counts of removals ({s.more_than}, clear cutting {s.definitions}) or of the {s.doubling} "
            f"{_access.multiplied(law['penalty']['doubling_factor'])['ing']}, "
            f"carry no replacement ({s.replacement_a} needs a permit, {s.replacement_f} a violation) and hold no building permit "
            f"({s.no_building_permit}). Under a site-wide exception that needs no permit ({s.village_work}, B(2), E) the removals are not"
            " clear cutting ('without the benefit of a ... permit'), unless the Village Engineer has determined it.",
        ),
        (
            f"{s.more_than_and_cc}",
            f"{s.more_than} and (8): a tree already removed is judged on the removals already done (with the lot's "
            "earlier ones); a proposed removal on all removals, proposed included. Both count removals only: a topped"
            f" or damaged tree still stands and is no part of 'more than {more} trees' removed or of clear cutting "
            f"('the removal of {clear} or more trees'). A tree already removed under its own permit is no part of the "
            f"count a removal already made is judged on ({s.more_than_three_prohibited}: 'more than {more} ({n_more}) trees ... without first "
            f"obtaining a tree removal permit'): {_words(n_more + 1)} removed, one under its own permit, are {more} "
            "without one. The lot's earlier removals (prior_removals_12mo) count for a removal already made only as "
            "far as prior_removals_without_permit says they had no permit (at most prior_removals_12mo of them): "
            "that fact given (0 included), the others had a permit and count for nothing; not given, they count for "
            "the conditional figures, an offence resting on them conditional, naming that fact; a proposed removal "
            "needs a permit on all of them.",
        ),
        (
            f"{s.definitions}",
            f"{s.definitions} CLEAR CUTTING ('removal of {clear} or more trees from a property without ... a current and valid "
            f"tree removal permit') has no {_months(law)} window and counts only removals made without a permit: the "
            "survey's removals plus the site fact prior_removals_without_permit (default 0). Where the Village "
            "Engineer has determined clear cutting (‹clear_cutting›), that determination is applied as given.",
        ),
        (
            f"{s.offence_penalties}",
            f"{s.offence_penalties} reach anyone who 'otherwise violates any of the provisions of this chapter'. A harmed tree is"
            f" an offence when, without authorisation: (a) it was removed and {s.permit_required} required a permit (clear "
            f"cutting {s.clear_cutting_prohibited}, more than {more} {s.more_than_three_prohibited}); (b) it was topped or excessively pruned — {pruned} or more of "
            f"its leaf, stem or root area ({s.definitions}) — whatever its size or place ({s.topping}; street and public trees "
            f"also {s.street_topping}); (c) it is a street/public tree pruned (any share, short of excessive pruning too: no "
            f"{s.replacement_f} replacement then, and no {s.doubling} count), removed or otherwise disturbed without the "
            f"Department's written approval ({s.street_cd}, {s.healthy_street_tree}; a pruning's approval not given at all makes its "
            "offence conditional); (d) it was harmed in any way while a permit "
            f"application was pending ({s.pending}: 'any tree regulated by this chapter'; the TREE definition covers "
            "every species, so no size or flag is needed); (e) any other injury or damage is not an offence by "
            "itself: it is listed for the Engineer with the reason and no amount.",
        ),
        (
            f"{s.offences}",
            "Authorisation: the site fact permit_held (a current, valid permit covering the work) or the tree's own "
            "permit cell (headers 'Permit', 'Permit no.', 'Permit #', 'Permitted', 'Under permit'; yes/no, a permit "
            "number reads yes) authorises (a), (b) and (d); the Department's written approval (site fact or per-tree "
            "department_approval) authorises (c). A tree removed under its own permit is no offence and carries "
            f"nothing; proposed under it, only the {s.replacement_a} part. A permit or approval not given (a blank cell "
            "included) is taken as not held (it is the owner's to show) and the assumption is stated. A transplanted "
            "tree is not a removal.",
        ),
    ]


def _penalty_readings(law: dict[str, Any]) -> list[tuple[str, str]]:
    """The readings of the penalties, the replacement and the rest (§208-29B on)."""
    s = _s()
    _LAW = law
    _C, _R, _P = law["criminal"], law["replacement"], law["penalty"]
    times = _access.multiplied(_P["doubling_factor"])  # the doubling's "doubled"
    return [
        (
            f"{s.offences}",
            "Penalties only on established facts: an offence whose permit trigger rests on a fact that was assumed "
            f"(the parcel facts of {s.parcel}, a protected native plant's threatened or endangered status) is "
            "conditional: listed with the fact it depends on, its amount summed apart (civil_penalty_conditional_usd,"
            f" criminal_fine_conditional_usd). The maxima count definite offences only, and {s.no_building_permit} withholds "
            "building permits only once an offence is established. The permit preview keeps the reading that needs a "
            "permit.",
        ),
        (
            f"{s.civil}",
            f"{s.civil}: each offence tree at the highest tier that applies ((1)-(6)); B(7) {times['es']} the fines per tree "
            f"when more than {_words(_P['doubling_more_than_trees'])} regulated trees were harmed without a permit (every tree of (a)-(d), not only "
            "removals; the trees of this survey's offences: the lot's earlier removals, not before the Board here, "
            "count through clear cutting only), when clear cutting took place, or when any tree was harmed while an application was pending "
            f"(the harm that is itself the {s.pending} offence is not counted again as its aggravation: the pending "
            f"clause {times['es']} when two or more trees were harmed while pending, or a tree harmed while pending broke "
            "another provision too). Days of a continuing violation multiply.",
        ),
        (
            f"{s.criminal}",
            f"{s.criminal}: up to {_usd(_C['per_tree_usd'])} per offence tree; up to {_usd(_C['section_208_18_usd'])} for "
            f"each violation of {s.prohibitions} (topping or excessive pruning {s.topping}, more than "
            f"{_words(_LAW['permit']['more_than_trees_12mo'])} removals {s.more_than_three_prohibited}, clear cutting {s.clear_cutting_prohibited}); up to "
            f"{_usd(_C['repeat_within_year_usd'])} per tree when"
            f" a prior violation within {_years(_C['repeat_window_years'])} is given (prior_violation_within_year). The other reading of 'second "
            f"and each subsequent violation' (every tree after the first of the same event at "
            f"{_usd(_C['repeat_within_year_usd'])}) is stated as a "
            "note with its figure.",
        ),
        (
            f"{s.replacement}",
            f"{s.replacement}: required value = {_pct(_R['violation_percent'])} (or the Engineer's percentage, {s.replacement_f}) of "
            "the value of the trees harmed"
            f" in offences plus {_pct(_R['percent'])} ({s.replacement_a}) of the value of the trees proposed for removal under a "
            f"permit covering {_words(_R['min_trees'])} or more trees. A lawful removal that needs no permit carries nothing; a tree only damaged without "
            f"an offence carries nothing. The {s.good_forestry} exclusions (invasive, good forestry) apply to both parts.",
        ),
        (
            f"{s.replacement_f}",
            f"{s.replacement_f} ('if an applicant has violated this chapter ... the replacement tree standard is "
            f"{_pct(_R['violation_percent'])} of the "
            "environmental value of the trees cut down, removed, topped ...') measures the trees harmed in the "
            f"violation. An earlier violation within {_years(_C['repeat_window_years'])} (prior_violation_within_year) whose trees are not in "
            f"this survey does not raise the replacement of this survey's proposed removals (they stay at {s.replacement_a}); "
            f"it raises the {s.criminal} criminal maximum.",
        ),
        (
            f"{s.in_lieu_f}, {s.fund}",
            f"{s.in_lieu_f}, {s.fund}: a payment 'equivalent to the value of the trees which cannot be planted' is a "
            "capital sum. With fee-schedule basis value, the schedule names its capital basis (value_basis = "
            "appraised, the default, or cumulative:N), independent of the assessment's value basis; an annual $/yr "
            f"figure is never charged as a one-off payment. The {s.replacement_f} alternative payment "
            f"({_pct(_R['violation_percent'])} of the harmed "
            "trees' value) is on the same capital basis.",
        ),
        (
            f"{s.tier6}",
            f"{s.tier6} 'trees designated by the New York State Department of Environmental Conservation as a "
            "protected native plant' prices an offence, it creates none: tier (6) reads protected_native, and "
            "threatened_endangered too (threatened and endangered species are protected native plants, 6 NYCRR "
            "193.3).",
        ),
        (
            f"{s.tier6}",
            f"{s.tier6} 'Designated Buffer Areas' is not defined in Chapter 208: the regulated buffer zone is not "
            "read as one unless data/readings/croton_on_hudson.toml says so.",
        ),
        (
            f"{s.good_forestry}",
            f"{s.good_forestry} good forestry exempts from replacement: a cell neither yes nor no ('maybe', '?', 'unsure') is no "
            f"determination given. The permit preview keeps a proposed removal's {s.replacement_a} replacement; the {s.replacement_f} "
            "replacement of a tree harmed in a violation rests on the exemption not applying and is conditional, "
            "shown apart, naming the cell.",
        ),
        (
            f"{s.definitions} TREE",
            "Multi-stem trees: the legal DBH thresholds use √Σd² of the stems (the TREE definition says 'in "
            "combination' without a method), compared at the precision the stems were measured (the most decimals "
            "a stem is written with, in its unit): stems 6 and 5.3 in combine to 8.0056 in, 8.0 in at 0.1 in. "
            "Where the two figures fall on different sides of a bound, the permit preview keeps the one that needs "
            f"a permit ({s.sized_triggers} 'inches or more'), an offence resting on it is conditional, and a "
            f"{s.civil} tier {_tier_bounds(law)} is the lower one in "
            "the maximum, the higher in the conditional figures only.",
        ),
        (
            f"{s.attachments}",
            f"{s.attachments} (attaching objects that injure a tree) is not assessed: the survey does not record it.",
        ),
    ]


def other_prohibitions_208() -> str:
    s = _s()
    return (
        f"Not assessed by treecalc: attaching objects that injure a tree ({s.attachments}), which the "
        "survey does not record; other damage or injury is listed for the Village Engineer "
        f"with no amount ({s.offences})."
    )


def sections_applied() -> list[str]:
    s = _s()
    return [
        f"{s.street_pruning}",
        f"{s.street_removal}",
        f"{s.street_topping}",
        f"{s.healthy_street_tree}",
        f"{s.definitions}",
        f"{s.more_than_three_prohibited}",
        f"{s.clear_cutting_prohibited}",
        f"{s.topping}",
        f"{s.permit_required}",
        f"{s.exceptions}",
        f"{s.planning_board}",
        f"{s.pending}",
        f"{s.replacement_all}",
        f"{s.spacing}",
        f"{s.bond_forfeited}",
        f"{s.fund}",
        f"{s.criminal}",
        f"{s.civil}",
        f"{s.no_building_permit}",
        f"{s.penalties_to_fund}",
    ]


def not_offence_village() -> str:
    s = _s()
    return (
        f"work done by or on behalf of the Village: no permit required ({s.village_work}), and {s.street_bcd} and {s.street_topping} "
        "bind persons other than the Village; no offence"
    )


#: Who sets a penalty up to the maxima the statement gives (the Violations page says it under them).
def penalty_setter(law: dict[str, Any]) -> str:
    """Who sets a penalty up to the maxima, and the term of imprisonment §208-29A allows, from ``law``."""
    s = _s()
    crim = law["criminal"]
    return (
        f"the Planning Board assesses the civil penalty after a hearing ({s.civil}) and may release or compromise it; "
        f"the court sets a criminal fine ({s.criminal}; for a subsequent violation within "
        f"{_years(crim['repeat_window_years'])} or a violation of {s.prohibitions}, the fine or up to "
        f"{int(crim['imprisonment_max_days'])} days' imprisonment, or both)"
    )


def offence_reading_208() -> str:
    s = _s()
    return (
        f"{s.offences}: a harmed tree is an offence when, without authorisation, it was removed where "
        f"{s.permit_required} required a permit, topped or excessively pruned ({s.topping}), a street tree "
        f"disturbed without the Department's approval ({s.street_cd}, {s.healthy_street_tree}), or harmed while an "
        f"application was pending ({s.pending}); other damage is listed for the Engineer, no amount."
    )


# ------------------------------------------------------------------------------------------
# the assessment under Chapter 208: findings and statement lines
# ------------------------------------------------------------------------------------------
def note_29f() -> str:
    s = _s()
    return (
        f"{s.no_building_permit}: no building permit, temporary certificate of occupancy or certificate of occupancy is "
        "issued for the property while a violation of Chapter 208 served is open"
    )


def pending_literal_note() -> str:
    s = _s()
    return (
        f"{s.doubling} 'if any tree is ... removed ... while an application is pending' is read as an aggravation "
        "of an offence besides the harm itself, so one tree harmed while pending is not {ed} by itself (see "
        "Readings). Read to the letter, it {es} that tree's own fine too: civil maximum ${usd:,} (definite "
        "offences); not applied"
    )


def note_multistem() -> str:
    s = _s()
    return (
        "multi-stem trees: the legal DBH thresholds are applied to √Σd² of the stems (the TREE "
        "definition says 'in combination' without a method; the reading treecalc applies), at the stems' precision; "
        "a bound met by only one of the two figures is met for the permit preview and conditional for penalties "
        f"({s.permit_required}, {s.civil})"
    )


def note_street_approval() -> str:
    s = _s()
    return f"{s.healthy_street_tree}, {s.street_removal}: removing a street/public tree needs the Department's written approval besides any permit"


def note_21f() -> str:
    s = _s()
    return (
        f"{s.licensed}: for removing, pruning or topping a tree over {{dbh:g}} in DBH or a landmark tree, the approving "
        "authority may require, as a condition of the permit, that a licensed professional tree care company do the work"
    )


def note_20c() -> str:
    s = _s()
    return f"{s.marked}: trees of {{dbh:g}} in DBH or more in the areas to be disturbed are individually identified and marked"


#: The warranty's note, a template: ``years`` the warranty in words, ``replant`` a replant's period (:func:`note_22g`)
def _note_22g_template() -> str:
    s = _s()
    return (
        f"{s.warranty}: the owner warrants the replacements for {{years}} years; replacements that die are replanted "
        "in the next growing season and warranted for {replant} from their own provisional acceptance"
    )


def warranty_years(law: dict[str, Any]) -> str:
    """§208-22G's warranty as the ordinance says it ("three years" for "the third anniversary")."""
    return f"{_words(law['replacement']['warranty_years'])} years"


def note_22g(law: dict[str, Any]) -> str:
    """The §208-22G note, its warranty that of ``law`` (in force on the date)."""
    rep = law["replacement"]
    return _note_22g_template().format(
        years=_words(rep["warranty_years"]), replant=spelled_years(rep["replant_warranty_years"])
    )


def note_18e() -> str:
    s = _s()
    return f"{s.invasive_install}: a prohibited invasive species (6 NYCRR Part 575) may never be installed or planted"


def _blank(v: Any) -> bool:
    """A cell that says nothing: None, NA, NaN or spaces."""
    return v is None or v is pd.NA or _not_given(v)


def _not_given(v: Any) -> bool:
    return v is None or (isinstance(v, float) and np.isnan(v)) or (isinstance(v, str) and not v.strip())


# ---------------------------------------------------------------- what the assessment reads of this chapter
def dead_tree_reading(law: dict[str, Any]) -> str:
    """How Chapter 208 reads a dead tree (the docs' law pages), its counts those of ``law`` (in force on the date)."""
    s = _s()
    more, least = _words(law["permit"]["more_than_trees_12mo"]), _words(law["replacement"]["min_trees"])
    return (
        f"{s.valued} 'environmental value' (i-Tree / National Tree Benefit Calculator): a dead tree (condition dead, "
        "or a census status 'Dead') has no leaf area, so its annual benefits, its value on every basis and its CTLA "
        f"appraisal (condition 0%) are 0, and it is not counted toward the {s.replacement_a} or {s.replacement_f} replacement. Its "
        f"removal still counts as a tree removed for {s.more_than} ('more than {more} trees'), for clear cutting "
        f"({s.definitions}, {s.clear_cutting}) and among the trees a permit is issued for ({s.replacement_a} '{least} or more trees'); "
        f"{s.dead} makes it a standard for granting the permit, not an exception."
    )


#: How the violation's replacement standard reads an offence that rests on a fact not given (the docs' law pages).
def conditional_22f_reading() -> str:
    s = _s()
    return (
        f"{s.replacement_f} 'if an applicant has violated this chapter': its replacement standard is charged only on "
        "trees whose offence is definite (facts given). A tree whose offence rests on a fact not given (a conditional offence) "
        f"carries no replacement: what {s.replacement_f} would require of it (trees, or the payment in their place) is shown "
        "apart, 'would be required if' the fact is established, never in 'Replacement required' or the totals."
    )


#: Readings of the assessment as a whole, stated after :data:`READING_ITEMS` (``method["readings"]``).
def assessment_reading_items(law: dict[str, Any]) -> list[tuple[str, str]]:
    """Readings of the assessment as a whole under ``law`` (in force on the date), after :func:`reading_items`."""
    s = _s()
    return [
        (f"{s.offences}", offence_reading_208()),
        (f"{s.attachments}", other_prohibitions_208()),
        (f"{s.valuation}", dead_tree_reading(law)),
        (f"{s.replacement_f}, {s.offences}", conditional_22f_reading()),
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
    "OFFENCE_RULE": lambda law: offence_reading_208(),
    "OTHER_PROHIBITIONS_208": lambda law: other_prohibitions_208(),
    "SECTIONS_APPLIED": lambda law: sections_applied(),
    "NOT_OFFENCE_VILLAGE": lambda law: not_offence_village(),
    "OFFENCE_READING_208": lambda law: offence_reading_208(),
    "NOTE_29F": lambda law: note_29f(),
    "PENDING_LITERAL_NOTE": lambda law: pending_literal_note(),
    "NOTE_MULTISTEM": lambda law: note_multistem(),
    "NOTE_STREET_APPROVAL": lambda law: note_street_approval(),
    "NOTE_21F": lambda law: note_21f(),
    "NOTE_20C": lambda law: note_20c(),
    "NOTE_18E": lambda law: note_18e(),
    "CONDITIONAL_22F_READING": lambda law: conditional_22f_reading(),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return _LAZY[name](_access.law("croton_on_hudson"))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
