"""Chapter 95's readings of unclear text, the sections applied, and the site facts it assumes when not given
(each in the chapter's words, ``[site_why]``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from treecalc.ingest.site import site_defaults
from treecalc.law import access as _access
from treecalc.law import entry as _entry
from treecalc.law import readings as _readings
from treecalc.quantities import IN_PER_FT

NO_REPLACEMENT_RULE = "Wesley Hills Chapter 95 has no replacement-value rule"


PENALTY_SECTION = "Ch. 95 penalties A"  # the section number is not in the extracted text


OTHER_SECTION = "Ch. 95 penalties B"


def cited(key: str) -> str:
    """The section of the entry ``key`` of Chapter 95's clearing file (``"permit.lot_line_min_dbh_in"``): the
    section a rule applying that number cites."""
    return _entry("wesley_hills", key).section


def provision(key: str) -> str:
    """The section of a provision that states no number of the law (an exception, a permit deemed granted: the
    readings' ``[sections]``, keyed by the site fact or what it is, with the ordinance's words)."""
    return str(_readings("wesley_hills")["sections"][key]["section"])


def clearing_permit_section() -> str:
    """§95-3A(1), the clearing permit's trees, cited from the entry of its measuring height (the number the
    subsection states for all its triggers)."""
    return cited("permit.measured_above_ground_in")


def _offence_rule(law: dict[str, Any]) -> str:
    """When a harmed tree is an offence under Chapter 95 (the Violations page says it over its tree pickers)."""
    return (
        f"{PENALTY_SECTION}: a tree is an offence when it was removed where {clearing_permit_section()} required a "
        f"clearing permit and none was first obtained (each tree a separate violation); other violations "
        f"({OTHER_SECTION}) are not assessed"
    )


def _also(first: str, then: str) -> str:
    """``then`` as said after ``first`` in a list: the paragraph only where both are of one subsection
    ("§95-3D(1), (4)")."""
    head = then[: then.find("(")] if "(" in then else ""
    return then[len(head) :] if head and first.startswith(head) else then


#: Who sets a fine up to the maxima the statement gives.
PENALTY_SETTER = "a court sets the fine (or imprisonment, or both) up to them"


#: Why each site fact not given is assumed as it is, in this chapter's words (``[site_why]`` of
#: ``data/law/wesley_hills/ch95_clearing.toml``); the assumed values themselves have one home,
#: :data:`treecalc.ingest.site.SITE_ASSUMED` (``data/readings/site_facts.toml``).
def site_why(law: dict[str, Any]) -> dict[str, str]:
    """Why each site fact not given is assumed, in the words of ``law`` (in force on the assessment's date)."""
    return _access.site_why(law, _readings("wesley_hills"))  # the words a survey read before it is assessed states too


#: A survey's DBH is measured at breast height, 4.5 ft above ground: the survey's measure, not Chapter 95's.
BREAST_HEIGHT_FT = 4.5


def _measured(height_in: float) -> str:
    """§95-3A(1)'s measuring height, and whether the survey's DBH is that diameter."""
    said = f"{cited('permit.measured_above_ground_in')}: diameters are measured {height_in:g} inches above ground"
    if height_in == BREAST_HEIGHT_FT * IN_PER_FT:
        return f"{said}, which is DBH ({BREAST_HEIGHT_FT:g} ft)."
    return (
        f"{said} ({height_in / IN_PER_FT:g} ft); the survey's DBH ({BREAST_HEIGHT_FT:g} ft) is read as that diameter."
    )


def reading_texts(law: dict[str, Any]) -> list[str]:
    """Chapter 95's readings of unclear text, its numbers those of ``law`` (the law in force on the assessment's
    date: an amended fine is quoted from its date, the old one before it)."""
    _FINE, _PERMIT = law["fine"], law["permit"]
    c, d, e = (cited(f"permit.{k}_min_dbh_in") for k in ("vacant_lot", "large_lot", "lot_line"))
    ce = f"{c}-{e[e.rfind('(') :]}"  # (c) to (e), the three triggers
    waiver, lawns = provision("waiver"), provision("lawns_and_gardens")
    return [
        _measured(_PERMIT["measured_above_ground_in"]),
        f"{c} 'vacant lot' is read as a lot without an existing residence (site fact has_residence, "
        "or vacant_lot where given).",
        f"{ce} 'inches or more in diameter': a multi-stem tree's diameter is √Σd² of its stems, compared "
        "at the precision the stems were measured (6 and 5.3 in combine to 8.0056 in, 8.0 in at 0.1 in); a bound "
        "met by only one of the two figures is met for the permit preview, and the removal's fine is conditional.",
        "The penalty section of Chapter 95 is cited as 'Ch. 95 penalties A/B': its number is not in the text received.",
        f"{ce} and penalties A ('remove a tree for which a clearing permit is required'): only removals "
        "(remove, removed) need a clearing permit or are fined; a damaged tree that still stands is neither.",
        f"{e} within {_PERMIT['lot_line_distance_ft']:g} ft of a lot line: a tree whose lot-line cell is "
        "blank (a fact not given, never a "
        "'no'), or a survey without a lot-line column (flags_not_surveyed), is taken as within "
        f"{_PERMIT['lot_line_distance_ft']:g} ft (the cautious "
        "reading) and the assumption is stated; a removal fined through it is a conditional offence.",
        "Penalties A has no per-day clause: each tree removed without a permit is one violation, up to "
        f"${int(_FINE['per_tree_usd']):,}; the "
        "days of a continuing violation are not applied to it. Penalties B (any other violation, up to "
        f"${int(_FINE['other_per_day_usd']):,}, "
        "each day's continued violation a separate violation) is shown as a maximum per day only: treecalc "
        "assesses no other violation, so no days total of one is printed (the days count given multiplies "
        "neither A nor an other violation that is not there).",
        f"Exceptions read from the text: {provision('village_work')} operations by or for the Village (site fact "
        f"village_work) and {provision('subdivision_plans_approved')} approved subdivision construction plans deemed "
        "a permit (site fact subdivision_plans_approved). "
        f"{provision('building_permit')} (building permit) and {provision('site_plan_approved')} "
        "(approved site plan) are deemed permits for landfilling, "
        f"excavation and removal of material, not for tree removal, and {waiver}, {_also(waiver, lawns)} concern "
        "excavation, filling and lawns: they are not applied to trees.",
        f"{provision('normal_farming')} (the chapter does not prohibit or limit the normal use of land for farming, gardening or similar "
        "agricultural or horticultural uses) is read as a site fact, normal_farming: when given yes, no clearing "
        "permit is needed and no fine applies.",
        "Fines only on established facts (Chapter 95 penalties A): a removal fined only through a fact that was "
        "assumed — a vacant lot read from a residence fact not given, a lot area not given, a missing distance to "
        "the residence, a lot-line flag absent or blank, a certificate of occupancy not given — is a conditional "
        "offence: listed with the fact it depends on, its amount summed apart (fine_conditional_usd); fine_max_usd "
        "counts definite offences only. The clearing-permit preview keeps the reading that needs a permit.",
    ]


def _sections_applied(law: dict[str, Any]) -> list[str]:
    """The sections the assessment applies: the triggers' entries, the exceptions' provisions, the penalties."""
    triggers = [cited(f"permit.{k}_min_dbh_in") for k in ("vacant_lot", "large_lot", "lot_line")]
    excepted = [provision(k) for k in ("subdivision_plans_approved", "village_work", "normal_farming")]
    return [*triggers, *excepted, PENALTY_SECTION, OTHER_SECTION]


def _not_given(v: Any) -> bool:
    return v is None or (isinstance(v, float) and np.isnan(v)) or (isinstance(v, str) and not v.strip())


#: The readings above filled from the latest law held, made each time they are asked for (module attributes, PEP
#: 562): importing this module reads no law, so a village's copy of the data folder that breaks the schema is refused
#: by the command that reads it (exit 2), and an amended folder is read as it is now.
_LAZY: dict[str, Any] = {
    "SITE_DEFAULTS": lambda law: site_defaults("wesley_hills", site_why(law)),
    "READINGS": reading_texts,
    "SECTIONS_APPLIED": _sections_applied,
    "OFFENCE_RULE": _offence_rule,
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return _LAZY[name](_access.law("wesley_hills"))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
