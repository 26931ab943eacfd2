"""Chapter 95's readings of unclear text, the sections applied, and the site facts it assumes when not given
(each in the chapter's words, ``[site_why]``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from treecalc.ingest.site import site_defaults
from treecalc.law import access as _access
from treecalc.quantities import IN_PER_FT

NO_REPLACEMENT_RULE = "Wesley Hills Chapter 95 has no replacement-value rule"


PENALTY_SECTION = "Ch. 95 penalties A"  # the section number is not in the extracted text


OTHER_SECTION = "Ch. 95 penalties B"

#: When a harmed tree is an offence under Chapter 95 (the Violations page says it over its tree pickers).
OFFENCE_RULE = (
    f"{PENALTY_SECTION}: a tree is an offence when it was removed where §95-3A(1) required a clearing permit and "
    f"none was first obtained (each tree a separate violation); other violations ({OTHER_SECTION}) are not assessed"
)
#: Who sets a fine up to the maxima the statement gives.
PENALTY_SETTER = "a court sets the fine (or imprisonment, or both) up to them"


#: Why each site fact not given is assumed as it is, in this chapter's words (``[site_why]`` of
#: ``data/law/wesley_hills/ch95_clearing.toml``); the assumed values themselves have one home,
#: :data:`treecalc.ingest.site.SITE_ASSUMED` (``data/readings/site_facts.toml``).
def site_why(law: dict[str, Any]) -> dict[str, str]:
    """Why each site fact not given is assumed, in the words of ``law`` (in force on the assessment's date)."""
    from treecalc.law import readings

    return _access.site_why(law, readings("wesley_hills"))  # the words a survey read before it is assessed states too


#: A survey's DBH is measured at breast height, 4.5 ft above ground: the survey's measure, not Chapter 95's.
BREAST_HEIGHT_FT = 4.5


def _measured(height_in: float) -> str:
    """§95-3A(1)'s measuring height, and whether the survey's DBH is that diameter."""
    said = f"§95-3A(1): diameters are measured {height_in:g} inches above ground"
    if height_in == BREAST_HEIGHT_FT * IN_PER_FT:
        return f"{said}, which is DBH ({BREAST_HEIGHT_FT:g} ft)."
    return (
        f"{said} ({height_in / IN_PER_FT:g} ft); the survey's DBH ({BREAST_HEIGHT_FT:g} ft) is read as that diameter."
    )


def reading_texts(law: dict[str, Any]) -> list[str]:
    """Chapter 95's readings of unclear text, its numbers those of ``law`` (the law in force on the assessment's
    date: an amended fine is quoted from its date, the old one before it)."""
    _FINE, _PERMIT = law["fine"], law["permit"]
    return [
        _measured(_PERMIT["measured_above_ground_in"]),
        "§95-3A(1)(c) 'vacant lot' is read as a lot without an existing residence (site fact has_residence, "
        "or vacant_lot where given).",
        "§95-3A(1)(c)-(e) 'inches or more in diameter': a multi-stem tree's diameter is √Σd² of its stems, compared "
        "at the precision the stems were measured (6 and 5.3 in combine to 8.0056 in, 8.0 in at 0.1 in); a bound "
        "met by only one of the two figures is met for the permit preview, and the removal's fine is conditional.",
        "The penalty section of Chapter 95 is cited as 'Ch. 95 penalties A/B': its number is not in the text received.",
        "§95-3A(1)(c)-(e) and penalties A ('remove a tree for which a clearing permit is required'): only removals "
        "(remove, removed) need a clearing permit or are fined; a damaged tree that still stands is neither.",
        f"§95-3A(1)(e) within {_PERMIT['lot_line_distance_ft']:g} ft of a lot line: a tree whose lot-line cell is "
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
        "Exceptions read from the text: §95-3D(2) operations by or for the Village (site fact village_work) and "
        "§95-3C(2) approved subdivision construction plans deemed a permit (site fact subdivision_plans_approved). "
        "§95-3C(1) (building permit) and §95-3C(3) (approved site plan) are deemed permits for landfilling, "
        "excavation and removal of material, not for tree removal, and §95-3D(1), (4) concern excavation, "
        "filling and lawns: they are not applied to trees.",
        "§95-3D(3) (the chapter does not prohibit or limit the normal use of land for farming, gardening or similar "
        "agricultural or horticultural uses) is read as a site fact, normal_farming: when given yes, no clearing "
        "permit is needed and no fine applies.",
        "Fines only on established facts (Chapter 95 penalties A): a removal fined only through a fact that was "
        "assumed — a vacant lot read from a residence fact not given, a lot area not given, a missing distance to "
        "the residence, a lot-line flag absent or blank, a certificate of occupancy not given — is a conditional "
        "offence: listed with the fact it depends on, its amount summed apart (fine_conditional_usd); fine_max_usd "
        "counts definite offences only. The clearing-permit preview keeps the reading that needs a permit.",
    ]


SECTIONS_APPLIED = [
    "§95-3A(1)(c)",
    "§95-3A(1)(d)",
    "§95-3A(1)(e)",
    "§95-3C(2)",
    "§95-3D(2)",
    "§95-3D(3)",
    PENALTY_SECTION,
    OTHER_SECTION,
]


def _not_given(v: Any) -> bool:
    return v is None or (isinstance(v, float) and np.isnan(v)) or (isinstance(v, str) and not v.strip())


#: The readings above filled from the latest law held, made each time they are asked for (module attributes, PEP
#: 562): importing this module reads no law, so a village's copy of the data folder that breaks the schema is refused
#: by the command that reads it (exit 2), and an amended folder is read as it is now.
_LAZY: dict[str, Any] = {
    "SITE_DEFAULTS": lambda law: site_defaults("wesley_hills", site_why(law)),
    "READINGS": reading_texts,
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return _LAZY[name](_access.law("wesley_hills"))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
