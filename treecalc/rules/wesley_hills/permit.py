"""§95-3A(1)(c)-(e): when a clearing permit is required, per removal, and its exceptions (§95-3C(2), §95-3D(2), (3))."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from treecalc.frames import actions, dbh_doubt, dbh_range, unclear_words
from treecalc.frames import join as _join
from treecalc.ingest.site import fact_bool as parse_bool
from treecalc.law.access import meets
from treecalc.rules.wesley_hills.readings import cited, provision
from treecalc.schema import REMOVALS

#: The exceptions a site fact gives, as the outputs say them; each cited by its provision in the readings'
#: ``[sections]`` (keyed by the same site fact), where the ordinance's words are.
EXCEPTIONS = {
    "village_work": "operations conducted by or for the Village of Wesley Hills: Chapter 95 does "
    "not apply, no clearing permit required",
    "normal_farming": "normal use of land for farming, gardening or similar agricultural or "
    "horticultural uses: Chapter 95 does not prohibit or limit it",
    "subdivision_plans_approved": "approved subdivision construction plans deemed a duly issued "
    "permit (removals within the street rights-of-way, slope rights "
    "and drainage areas, or shown on the approved, bonded grading "
    "plan)",
}


def _meets(key: str, x: Any, value: Any) -> Any:
    """``x <operator> value`` as Chapter 95 states the comparison ``key`` (its operator is data)."""
    return meets("wesley_hills", key, x, value)


@dataclass
class WesleyHillsResult:
    triggers: list[list[str]]
    permit_needed: np.ndarray
    offence: np.ndarray
    fine_usd: np.ndarray
    site_triggers: list[dict[str, Any]]
    assumptions: list[str]
    exceptions_applied: list[dict[str, str]] = field(default_factory=list)
    definite: np.ndarray | None = None  # an offence on facts given
    depends_on: np.ndarray | None = None  # per tree: the assumed fact(s) a conditional offence rests on


def evaluate(
    trees: pd.DataFrame,
    site: dict[str, Any],
    law: dict[str, Any],
    *,
    flags_not_surveyed: Any = (),
    assumed: Any = frozenset(),
) -> WesleyHillsResult:
    """§ 95-3A(1)(c)-(e) per removal and the fines of penalties A.

    ``flags_not_surveyed``: flag names the survey had no column for (the reader fills them with
    False); ``within_20ft_of_lot_line`` among them is read as unknown. ``assumed``: the site facts
    not given. A trigger resting on an assumed fact makes a conditional offence only.
    """
    p = law["permit"]
    act = actions(trees)
    n = len(trees)
    # "remove a tree for which a clearing permit is required": removals only, never a damaged tree
    harmed = np.isin(act, REMOVALS)
    # a multi-stem tree's two DBH figures (√Σd², at the stems' precision): a bound met by the higher only is met for
    # the permit preview, and the fine resting on it is conditional
    d_lo, d = dbh_range(trees)
    tags = trees["tag"].astype(str).to_numpy(object) if "tag" in trees else np.arange(n).astype(str)
    text = np.full(n, "", dtype=object)
    given = np.zeros(n, dtype=bool)
    depends = np.full(n, "", dtype=object)
    site_triggers: list[dict[str, Any]] = []
    assumptions: list[str] = []

    def add(section: str, mask: np.ndarray, what: str, on_assumed: np.ndarray | str = "", key: str = "") -> None:
        """``key``: the law's DBH bound the trigger reads (a multi-stem tree meeting it at one figure only)."""
        nonlocal text, given, depends
        mask = mask & harmed
        if not mask.any():
            return
        text = _join(text, mask, section)
        dep = np.broadcast_to(np.asarray(on_assumed, dtype=object), (n,))
        if key:
            b = p[key]
            lo, hi = _meets(f"permit.{key}", d_lo, b), _meets(f"permit.{key}", d, b)
            size = dbh_doubt(trees, lo, hi, f"{b:g} in or more ({section})")
            dep = np.where(size == "", dep, np.where(dep == "", size, dep + "; " + size)).astype(object)
        given = given | (mask & (dep == ""))
        depends = np.where(mask & (dep != ""), np.where(depends == "", dep, depends + "; " + dep), depends)
        site_triggers.append({"section": section, "text": what, "tags": [str(t) for t in tags[mask]]})

    vacant = site.get("vacant_lot")
    vacant_assumed = "vacant_lot" in assumed and "has_residence" in assumed
    vacant = (not parse_bool(site.get("has_residence", False))) if vacant is None else parse_bool(vacant)
    # (c) 10 in or more on any vacant lot
    if vacant:
        sec = cited("permit.vacant_lot_min_dbh_in")
        add(
            sec,
            _meets("permit.vacant_lot_min_dbh_in", d, p["vacant_lot_min_dbh_in"]),
            f"{p['vacant_lot_min_dbh_in']:g} in or more on a vacant lot",
            f"vacant lot (has_residence not given, {sec})" if vacant_assumed else "",
            "vacant_lot_min_dbh_in",
        )
    survey = _Survey(add, trees, site, p, d, harmed, assumptions, assumed)
    _large_lot(survey)
    _lot_line(survey, flags_not_surveyed)
    needed = harmed & (text != "")
    exceptions = [{"section": provision(k), "text": EXCEPTIONS[k]} for k in EXCEPTIONS if site.get(k)]
    if site.get("village_work") or site.get("normal_farming"):
        needed = np.zeros(n, dtype=bool)  # work by or for the Village, farming: the chapter does not apply / limit
    held = bool(site.get("permit_held", False)) or bool(site.get("subdivision_plans_approved"))
    # the tree's own clearing permit, and work by or for the Village (village_work), where the survey says them per
    # tree; a cell neither yes nor no is not given: the removal it would excuse is a conditional offence
    own = _tree_yes(trees, "permit") | _tree_yes(trees, "village_work")
    offence = needed & (act == "removed") & (not held) & ~own
    for col in ("permit", "village_work"):
        w = unclear_words(trees, offence, col, "no")
        given = given & (w == "")
        depends = np.where(w == "", depends, np.where(depends == "", w, depends + "; " + w)).astype(object)
    definite = offence & given
    fine = np.where(offence, int(law["fine"]["per_tree_usd"]), 0).astype(np.int64)
    return WesleyHillsResult(
        [t.split("; ") if t else [] for t in text],
        needed,
        offence,
        fine,
        site_triggers,
        assumptions,
        exceptions,
        definite=definite,
        depends_on=np.where(offence & ~definite, depends, ""),
    )


@dataclass(frozen=True)
class _Survey:
    """What each §95-3A(1) trigger reads: the trigger recorder ``add``, the survey, site facts, law numbers,
    DBH and harmed arrays, the assumptions list it appends to and the site facts not given."""

    add: Any
    trees: pd.DataFrame
    site: dict[str, Any]
    p: dict[str, Any]
    d: np.ndarray
    harmed: np.ndarray
    assumptions: list[str]
    assumed: Any


def _large_lot(s: _Survey) -> None:
    """(d) lot of 1.5 acres or more: 10 in or more farther than 200 ft from an existing one-family residence."""
    add, trees, site, p, d = s.add, s.trees, s.site, s.p, s.d
    harmed, assumptions = s.harmed, s.assumptions
    sec = cited("permit.large_lot_min_dbh_in")
    area = site.get("lot_area_acres")
    if area is not None and not _meets("permit.large_lot_min_acres", float(area), p["large_lot_min_acres"]):
        return
    dist = (
        pd.to_numeric(trees["distance_to_residence_ft"], errors="coerce").to_numpy(float)
        if "distance_to_residence_ft" in trees
        else np.full(len(trees), np.nan)
    )
    big = _meets("permit.large_lot_min_dbh_in", d, p["large_lot_min_dbh_in"])
    unknown = np.isnan(dist) & harmed & big
    if unknown.any():
        assumptions.append(
            f"{int(unknown.sum())} tree(s) without distance_to_residence_ft are assumed farther "
            f"than {p['large_lot_residence_distance_ft']:g} ft from a residence ({sec})"
        )
    far = np.isnan(dist) | _meets("permit.large_lot_residence_distance_ft", dist, p["large_lot_residence_distance_ft"])
    dep = np.where(np.isnan(dist), f"distance_to_residence_ft not given ({sec})", "")
    if area is None:
        dep = np.where(dep == "", f"lot_area_acres not given ({sec})", "lot_area_acres and " + dep.astype(object))
    add(
        sec,
        big & far,
        f"{p['large_lot_min_dbh_in']:g} in or more, farther than {p['large_lot_residence_distance_ft']:g} ft "
        f"from a one-family residence, on a lot of {p['large_lot_min_acres']:g} acres or more",
        dep.astype(object),
        "large_lot_min_dbh_in",
    )


def _lot_line(s: _Survey, flags_not_surveyed: Any) -> None:
    """(e) 6 in or more within 20 ft of a lot line on a lot without a one-family certificate of occupancy."""
    add, trees, site, p, d = s.add, s.trees, s.site, s.p, s.d
    harmed, assumptions, assumed = s.harmed, s.assumptions, s.assumed
    sec = cited("permit.lot_line_min_dbh_in")
    if site.get("one_family_co_issued", False):
        return
    n = len(trees)
    not_surveyed = "within_20ft_of_lot_line" in set(flags_not_surveyed or ())
    if "within_20ft_of_lot_line" in trees and not not_surveyed:
        col = trees["within_20ft_of_lot_line"].astype("boolean")
        blank = col.isna().to_numpy(bool)
        near = col.fillna(True).to_numpy(bool)
    else:
        blank = np.ones(n, dtype=bool)
        near = np.ones(n, dtype=bool)
    regulated = _meets("permit.lot_line_min_dbh_in", d, p["lot_line_min_dbh_in"])
    unknown = blank & harmed & regulated
    if unknown.any():
        why = "the survey has no lot-line column: " if not_surveyed else ""
        assumptions.append(
            f"{why}{int(unknown.sum())} tree(s) without within_20ft_of_lot_line are assumed "
            f"within {p['lot_line_distance_ft']:g} ft of a lot line ({sec})"
        )
    dep = np.where(blank, f"within_20ft_of_lot_line not given ({sec})", "").astype(object)
    # a cell neither yes nor no ("maybe"): the permit is needed if it is yes, the offence conditional
    vague = unclear_words(trees, np.ones(n, dtype=bool), "within_20ft_of_lot_line")
    dep = np.where(vague == "", dep, vague + f" ({sec})").astype(object)
    if "one_family_co_issued" in assumed:
        dep = np.where(
            dep == "", f"one_family_co_issued not given ({sec})", dep + "; one_family_co_issued not given"
        ).astype(object)
    add(
        sec,
        regulated & near,
        f"{p['lot_line_min_dbh_in']:g} in or more within {p['lot_line_distance_ft']:g} ft of a lot line, "
        f"no one-family certificate of occupancy",
        dep,
        "lot_line_min_dbh_in",
    )


def _tree_yes(trees: pd.DataFrame, col: str) -> np.ndarray:
    """A per-tree fact column (``permit``, ``village_work``): True only where the survey says yes (a blank or
    unclear cell is not given, read as no)."""
    if col not in trees:
        return np.zeros(len(trees), dtype=bool)
    return trees[col].astype("boolean").fillna(False).to_numpy(bool)
