"""Wesley Hills Chapter 95 (Clearing, Filling and Excavation): clearing permits for trees and fines.

§ 95-3A(1)(c)-(e) make the removal of some trees an "operation" needing a clearing
permit; removing such a tree without one is fined up to $5,000 per tree; other
violations up to $2,500 per day. Chapter 95 has no replacement-value rule, and
treecalc does not invent one. Numbers from ``data/law/wesley_hills.toml``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from treecalc.rules.croton_on_hudson import REMOVALS, actions, dbh, parse_bool

NO_REPLACEMENT_RULE = "Wesley Hills Chapter 95 has no replacement-value rule"
PENALTY_SECTION = "Ch. 95 penalties A"   # the section number is not in the extracted text
OTHER_SECTION = "Ch. 95 penalties B"

SITE_DEFAULTS: dict[str, tuple[Any, str]] = {
    "has_residence": (False, "the lot is assumed vacant: no existing residence (§95-3A(1)(c))"),
    "vacant_lot": (None, "'vacant lot' (§95-3A(1)(c)) is read from has_residence: a lot without an existing "
                         "residence is vacant; give --site vacant_lot=true/false to decide it"),
    "lot_area_acres": (None, "the lot area is assumed to be 1.5 acres or more (§95-3A(1)(d)); "
                             "give --site lot_area_acres=N"),
    "one_family_co_issued": (False, "no certificate of occupancy for a one-family residence is assumed "
                                    "issued (§95-3A(1)(e))"),
    "permit_held": (False, "no clearing permit is assumed held for the trees already removed"),
    "village_work": (False, "the removals are assumed not operations conducted by or for the Village of Wesley "
                            "Hills (§95-3D(2))"),
    "subdivision_plans_approved": (False, "the removals are assumed not covered by approved subdivision "
                                          "construction plans deemed a permit (§95-3C(2))"),
}

EXCEPTIONS = {
    "village_work": ("§95-3D(2)", "operations conducted by or for the Village of Wesley Hills: Chapter 95 does "
                                  "not apply, no clearing permit required"),
    "subdivision_plans_approved": ("§95-3C(2)", "approved subdivision construction plans deemed a duly issued "
                                                "permit (removals within the street rights-of-way, slope rights "
                                                "and drainage areas, or shown on the approved, bonded grading "
                                                "plan)"),
}

READINGS = [
    "§95-3A(1): diameters are measured 54 inches above ground, which is DBH (4.5 ft).",
    "§95-3A(1)(c) 'vacant lot' is read as a lot without an existing residence (site fact has_residence, "
    "or vacant_lot where given).",
    "The penalty section of Chapter 95 is cited as 'Ch. 95 penalties A/B': its number is not in the text received.",
    "§95-3A(1)(c)-(e) and penalties A ('remove a tree for which a clearing permit is required'): only removals "
    "(remove, removed) need a clearing permit or are fined; a damaged tree that still stands is neither.",
    "§95-3A(1)(e) within 20 ft of a lot line: a tree without the flag, or a survey without a lot-line column "
    "(flags_not_surveyed), is taken as within 20 ft (the cautious reading) and the assumption is stated.",
    "Penalties A has no per-day clause: each tree removed without a permit is one violation, up to $5,000; the "
    "days of a continuing violation are not applied to it. Penalties B (any other violation, up to $2,500, "
    "each day's continued violation a separate violation) is shown as a maximum per day and, with a days "
    "count, days x $2,500 per other violation the Engineer finds; treecalc assesses no other violation.",
    "Exceptions read from the text: §95-3D(2) operations by or for the Village (site fact village_work) and "
    "§95-3C(2) approved subdivision construction plans deemed a permit (site fact subdivision_plans_approved). "
    "§95-3C(1) (building permit) and §95-3C(3) (approved site plan) are deemed permits for landfilling, "
    "excavation and removal of material, not for tree removal, and §95-3D(1), (3), (4) concern excavation, "
    "filling, farming and lawns: they are not applied to trees.",
]


@dataclass
class WesleyHillsResult:
    triggers: list[list[str]]
    permit_needed: np.ndarray
    offence: np.ndarray
    fine_usd: np.ndarray
    site_triggers: list[dict[str, Any]]
    assumptions: list[str]
    exceptions_applied: list[dict[str, str]] = field(default_factory=list)


def evaluate(trees: pd.DataFrame, site: dict[str, Any], law: dict[str, Any], *,
             flags_not_surveyed: Any = ()) -> WesleyHillsResult:
    """§ 95-3A(1)(c)-(e) per removal and the fines of penalties A.

    ``flags_not_surveyed``: flag names the survey had no column for (the reader fills them with
    False); ``within_20ft_of_lot_line`` among them is read as unknown.
    """
    p = law["permit"]
    act = actions(trees)
    # "remove a tree for which a clearing permit is required": removals only, never a damaged tree
    harmed = np.isin(act, REMOVALS)
    d = dbh(trees)
    tags = trees["tag"].astype(str).to_numpy(object) if "tag" in trees else np.arange(len(trees)).astype(str)
    per_tree: list[list[str]] = [[] for _ in range(len(trees))]
    site_triggers: list[dict[str, Any]] = []
    assumptions: list[str] = []

    def add(section: str, mask: np.ndarray, text: str) -> None:
        mask = mask & harmed
        if mask.any():
            for i in np.flatnonzero(mask):
                per_tree[i].append(section)
            site_triggers.append({"section": section, "text": text, "tags": [str(t) for t in tags[mask]]})

    vacant = site.get("vacant_lot")
    if vacant is None:
        vacant = not parse_bool(site.get("has_residence", False))
    else:
        vacant = parse_bool(vacant)
    # (c) 10 in or more on any vacant lot
    if vacant:
        add("§95-3A(1)(c)", d >= p["vacant_lot_min_dbh_in"],
            f"{p['vacant_lot_min_dbh_in']:g} in or more on a vacant lot")
    # (d) lot of 1.5 acres or more: 10 in or more farther than 200 ft from an existing one-family residence
    area = site.get("lot_area_acres")
    large = True if area is None else float(area) >= p["large_lot_min_acres"]
    if large:
        dist = (pd.to_numeric(trees["distance_to_residence_ft"], errors="coerce").to_numpy(float)
                if "distance_to_residence_ft" in trees else np.full(len(trees), np.nan))
        unknown = np.isnan(dist) & harmed & (d >= p["large_lot_min_dbh_in"])
        if unknown.any():
            assumptions.append(f"{int(unknown.sum())} tree(s) without distance_to_residence_ft are assumed farther "
                               f"than {p['large_lot_residence_distance_ft']:g} ft from a residence (§95-3A(1)(d))")
        far = np.isnan(dist) | (dist > p["large_lot_residence_distance_ft"])
        add("§95-3A(1)(d)", (d >= p["large_lot_min_dbh_in"]) & far,
            f"{p['large_lot_min_dbh_in']:g} in or more, farther than {p['large_lot_residence_distance_ft']:g} ft "
            f"from a one-family residence, on a lot of {p['large_lot_min_acres']:g} acres or more")
    # (e) 6 in or more within 20 ft of a lot line on a lot without a one-family certificate of occupancy
    if not site.get("one_family_co_issued", False):
        not_surveyed = "within_20ft_of_lot_line" in set(flags_not_surveyed or ())
        if "within_20ft_of_lot_line" in trees and not not_surveyed:
            col = trees["within_20ft_of_lot_line"].astype("boolean")
            unknown = col.isna().to_numpy(bool) & harmed & (d >= p["lot_line_min_dbh_in"])
            near = col.fillna(True).to_numpy(bool)
        else:
            unknown = harmed & (d >= p["lot_line_min_dbh_in"])
            near = np.ones(len(trees), dtype=bool)
        if unknown.any():
            why = ("the survey has no lot-line column: " if not_surveyed else "")
            assumptions.append(f"{why}{int(unknown.sum())} tree(s) without within_20ft_of_lot_line are assumed "
                               f"within {p['lot_line_distance_ft']:g} ft of a lot line (§95-3A(1)(e))")
        add("§95-3A(1)(e)", (d >= p["lot_line_min_dbh_in"]) & near,
            f"{p['lot_line_min_dbh_in']:g} in or more within {p['lot_line_distance_ft']:g} ft of a lot line, "
            f"no one-family certificate of occupancy")
    needed = harmed & np.array([bool(t) for t in per_tree], dtype=bool)
    exceptions = [{"section": EXCEPTIONS[k][0], "text": EXCEPTIONS[k][1]} for k in EXCEPTIONS if site.get(k)]
    if site.get("village_work"):
        needed = np.zeros(len(trees), dtype=bool)       # § 95-3D(2): the chapter does not apply
    held = bool(site.get("permit_held", False)) or bool(site.get("subdivision_plans_approved"))
    offence = needed & (act == "removed") & (not held)
    fine = np.where(offence, int(law["fine"]["per_tree_usd"]), 0).astype(np.int64)
    return WesleyHillsResult(per_tree, needed, offence, fine, site_triggers, assumptions, exceptions)
