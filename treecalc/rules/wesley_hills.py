"""Wesley Hills Chapter 95 (Clearing, Filling and Excavation): clearing permits for trees and fines.

§ 95-3A(1)(c)-(e) make the removal of some trees an "operation" needing a clearing
permit; removing such a tree without one is fined up to $5,000 per tree; other
violations up to $2,500 per day. Chapter 95 has no replacement-value rule, and
treecalc does not invent one. Numbers from ``data/law/wesley_hills.toml``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from treecalc.rules.croton_on_hudson import DONE, HARMED, actions, dbh, flag

NO_REPLACEMENT_RULE = "Wesley Hills Chapter 95 has no replacement-value rule"
PENALTY_SECTION = "Ch. 95 penalties A"   # the section number is not in the extracted text
OTHER_SECTION = "Ch. 95 penalties B"

SITE_DEFAULTS: dict[str, tuple[Any, str]] = {
    "has_residence": (False, "the lot is assumed vacant: no existing residence (§95-3A(1)(c))"),
    "lot_area_acres": (None, "the lot area is assumed to be 1.5 acres or more (§95-3A(1)(d)); "
                             "give --site lot_area_acres=N"),
    "one_family_co_issued": (False, "no certificate of occupancy for a one-family residence is assumed "
                                    "issued (§95-3A(1)(e))"),
    "permit_held": (False, "no clearing permit is assumed held for the trees already removed"),
}

READINGS = [
    "§95-3A(1): diameters are measured 54 inches above ground, which is DBH (4.5 ft).",
    "§95-3A(1)(c) 'vacant lot' is read as a lot without an existing residence (site fact has_residence, "
    "or vacant_lot where given).",
    "The penalty section of Chapter 95 is cited as 'Ch. 95 penalties A/B': its number is not in the text received.",
]


@dataclass
class WesleyHillsResult:
    triggers: list[list[str]]
    permit_needed: np.ndarray
    offence: np.ndarray
    fine_usd: np.ndarray
    site_triggers: list[dict[str, Any]]
    assumptions: list[str]


def evaluate(trees: pd.DataFrame, site: dict[str, Any], law: dict[str, Any]) -> WesleyHillsResult:
    p = law["permit"]
    act = actions(trees)
    harmed = np.isin(act, HARMED)
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
    vacant = (not site.get("has_residence", False)) if vacant is None else bool(vacant)
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
        if "within_20ft_of_lot_line" in trees:
            col = trees["within_20ft_of_lot_line"].astype("boolean")
            unknown = col.isna().to_numpy(bool) & harmed & (d >= p["lot_line_min_dbh_in"])
            near = col.fillna(True).to_numpy(bool)
        else:
            unknown = harmed & (d >= p["lot_line_min_dbh_in"])
            near = np.ones(len(trees), dtype=bool)
        if unknown.any():
            assumptions.append(f"{int(unknown.sum())} tree(s) without within_20ft_of_lot_line are assumed within "
                               f"{p['lot_line_distance_ft']:g} ft of a lot line (§95-3A(1)(e))")
        add("§95-3A(1)(e)", (d >= p["lot_line_min_dbh_in"]) & near,
            f"{p['lot_line_min_dbh_in']:g} in or more within {p['lot_line_distance_ft']:g} ft of a lot line, "
            f"no one-family certificate of occupancy")
    needed = harmed & np.array([bool(t) for t in per_tree], dtype=bool)
    offence = needed & np.isin(act, DONE) & (not site.get("permit_held", False))
    fine = np.where(offence, int(law["fine"]["per_tree_usd"]), 0).astype(np.int64)
    return WesleyHillsResult(per_tree, needed, offence, fine, site_triggers, assumptions)
